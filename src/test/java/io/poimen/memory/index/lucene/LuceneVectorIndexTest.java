package io.poimen.memory.index.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.vault.Chunk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** One 2,000-vector index is built per class for the read-only tests; tests that write use their own index. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LuceneVectorIndexTest {
    private static final int DIMS = 384;
    private static final int N = 2_000;
    private static final int CHUNKS_PER_PATH = 4;

    private final Random random = new Random(42);
    private final List<Chunk> chunks = new ArrayList<>();
    private final List<float[]> vectors = new ArrayList<>();
    private final Map<String, float[]> byId = new HashMap<>();
    private final Map<String, String> pathOf = new HashMap<>();
    private LuceneVectorIndex index;

    @BeforeAll
    void fill() {
        for (int i = 0; i < N; i++) {
            String path = "notes/n" + (i / CHUNKS_PER_PATH) + ".md";
            Chunk chunk = LexicalIndexContract.chunk(path, i % CHUNKS_PER_PATH, "H", List.of("H"), "text " + i,
                    List.of());
            float[] v = randomVector();
            chunks.add(chunk);
            vectors.add(v);
            byId.put(chunk.id(), v);
            pathOf.put(chunk.id(), path);
        }
        index = LuceneVectorIndex.inMemory(DIMS);
        index.upsert(chunks, vectors);
    }

    @AfterAll
    void close() {
        index.close();
    }

    private float[] randomVector() {
        float[] v = new float[DIMS];
        for (int d = 0; d < DIMS; d++) {
            v[d] = (float) random.nextGaussian();
        }
        return v;
    }

    /** cos(a, b) = a·b / (|a| |b|). */
    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    private List<String> exactTop(float[] query, Set<String> scope, int k) {
        return byId.keySet().stream()
                .filter(id -> scope == null || scope.contains(pathOf.get(id)))
                .sorted(Comparator.comparingDouble((String id) -> cosine(query, byId.get(id))).reversed())
                .limit(k)
                .toList();
    }

    @Test
    void recallAtTenIsAtLeastNinetyPercentOfExactCosine() {
        int queries = 50;
        int found = 0;
        for (int q = 0; q < queries; q++) {
            float[] query = randomVector();
            Set<String> expected = new HashSet<>(exactTop(query, null, 10));
            for (Hit hit : index.search(query, SearchScope.all(), 10)) {
                if (expected.contains(hit.chunkId())) {
                    found++;
                }
            }
        }
        double recall = found / (queries * 10.0);
        System.out.printf("lucene-hnsw recall@10 = %.3f over %d queries, %d vectors of %d dims%n",
                recall, queries, N, DIMS);
        assertThat(recall).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void scoresAreCosineSimilarities() {
        float[] query = randomVector();
        List<Hit> hits = index.search(query, SearchScope.all(), 10);

        assertThat(hits).hasSize(10);
        for (Hit hit : hits) {
            assertThat(hit.score()).isCloseTo(cosine(query, byId.get(hit.chunkId())), within(1e-4));
        }
        assertThat(hits).extracting(Hit::score).isSortedAccordingTo(Comparator.reverseOrder());
        // a stored vector finds itself with cosine 1
        Hit self = index.search(vectors.get(17), SearchScope.all(), 1).get(0);
        assertThat(self.chunkId()).isEqualTo(chunks.get(17).id());
        assertThat(self.score()).isCloseTo(1.0, within(1e-4));
    }

    @Test
    void aScopeOfEveryPathAnswersAsTheUnscopedSearchAndTheFloorAsksTheSameRequest() {
        Set<String> everyPath = new HashSet<>(pathOf.values());
        for (int q = 0; q < 20; q++) {
            float[] query = randomVector();
            List<Hit> unscoped = index.search(query, SearchScope.all(), 50);

            assertThat(index.search(query, SearchScope.of(everyPath), 50)).isEqualTo(unscoped);
            assertThat(index.plainSearch(query, 50)).isEqualTo(unscoped);
        }
    }

    @Test
    void aScopeMissingOnePathStillFiltersAfterTheIndexGrows() {
        try (LuceneVectorIndex small = LuceneVectorIndex.inMemory(DIMS)) {
            small.upsert(chunks.subList(0, 40), vectors.subList(0, 40));
            Set<String> scope = new HashSet<>();
            chunks.subList(0, 40).forEach(c -> scope.add(c.path()));
            assertThat(small.search(vectors.get(0), SearchScope.of(scope), 40)).hasSize(40);

            // a note the scope does not hold arrives: the same scope object must filter it out again
            small.upsert(chunks.subList(40, 44), vectors.subList(40, 44));
            List<Hit> hits = small.search(vectors.get(41), SearchScope.of(scope), 44);

            assertThat(hits).hasSize(40).extracting(Hit::chunkId)
                    .doesNotContainAnyElementsOf(chunks.subList(40, 44).stream().map(Chunk::id).toList());
        }
    }

    @Test
    void scopeFilterKeepsOnlyInScopeChunks() {
        Set<String> scope = new HashSet<>();
        IntStream.range(0, N / CHUNKS_PER_PATH).filter(i -> i % 10 == 3).forEach(i -> scope.add("notes/n" + i + ".md"));
        int found = 0;
        for (int q = 0; q < 10; q++) {
            float[] query = randomVector();

            List<Hit> hits = index.search(query, SearchScope.of(scope), 10);

            assertThat(hits).hasSize(10).allSatisfy(h -> assertThat(scope).contains(pathOf.get(h.chunkId())));
            Set<String> expected = new HashSet<>(exactTop(query, scope, 10));
            found += (int) hits.stream().filter(h -> expected.contains(h.chunkId())).count();
        }
        assertThat(found / 100.0).as("recall@10 inside the scope").isGreaterThanOrEqualTo(0.9);
        assertThat(index.search(randomVector(), SearchScope.of(Set.of()), 10)).isEmpty();
    }

    @Test
    void deleteByPathRemovesEveryChunkOfThePath() {
        try (LuceneVectorIndex small = LuceneVectorIndex.inMemory(DIMS)) {
            small.upsert(chunks.subList(0, 200), vectors.subList(0, 200));
            String path = chunks.get(40).path();

            small.deleteByPath(path);

            assertThat(small.count()).isEqualTo(200 - CHUNKS_PER_PATH);
            for (int i = 40; i < 40 + CHUNKS_PER_PATH; i++) {
                assertThat(small.search(vectors.get(i), SearchScope.all(), 10))
                        .hasSize(10).extracting(h -> pathOf.get(h.chunkId())).doesNotContain(path);
            }
        }
    }

    @Test
    void deleteByPathsRemovesEveryChunkOfEveryGivenPath() {
        try (LuceneVectorIndex small = LuceneVectorIndex.inMemory(DIMS)) {
            small.upsert(chunks.subList(0, 40), vectors.subList(0, 40));
            List<String> gone = List.of(chunks.get(0).path(), chunks.get(12).path());

            small.deleteByPaths(gone);

            assertThat(small.count()).isEqualTo(40 - 2 * CHUNKS_PER_PATH);
            assertThat(small.search(vectors.get(0), SearchScope.all(), 40))
                    .hasSize(40 - 2 * CHUNKS_PER_PATH).extracting(h -> pathOf.get(h.chunkId())).doesNotContainAnyElementsOf(gone);
        }
    }

    @Test
    void upsertReplacesTheVectorOfAChunk() {
        try (LuceneVectorIndex small = LuceneVectorIndex.inMemory(DIMS)) {
            small.upsert(chunks.subList(0, 200), vectors.subList(0, 200));
            float[] replacement = randomVector();

            small.upsert(List.of(chunks.get(5)), List.of(replacement));

            assertThat(small.count()).isEqualTo(200);
            Hit hit = small.search(replacement, SearchScope.all(), 1).get(0);
            assertThat(hit.chunkId()).isEqualTo(chunks.get(5).id());
            assertThat(hit.score()).isCloseTo(1.0, within(1e-4));
            assertThat(small.search(vectors.get(5), SearchScope.all(), 1).get(0).score()).isLessThan(0.5);
        }
    }

    @Test
    void vectorsSurviveCloseAndReopen(@TempDir Path dir) {
        float[] query = randomVector();
        List<Hit> before;
        try (LuceneVectorIndex onDisk = LuceneVectorIndex.open(dir, DIMS)) {
            onDisk.upsert(chunks.subList(0, 500), vectors.subList(0, 500));
            before = onDisk.search(query, SearchScope.all(), 10);
        }
        try (LuceneVectorIndex reopened = LuceneVectorIndex.open(dir, DIMS)) {
            assertThat(reopened.count()).isEqualTo(500);
            assertThat(reopened.search(query, SearchScope.all(), 10)).isEqualTo(before);
        }
    }

    @Test
    void newIndexesUseTheDotProductOfUnitVectors() {
        assertThat(index.similarity()).isEqualTo(VectorSimilarityFunction.DOT_PRODUCT);
    }

    @Test
    void anIndexWrittenWithCosineKeepsCosineAndStillAnswersCosines(@TempDir Path dir) throws Exception {
        try (FSDirectory d = FSDirectory.open(dir);
             IndexWriter writer = new IndexWriter(d, new IndexWriterConfig())) {
            Document doc = new Document();
            doc.add(new StringField(LuceneLexicalIndex.CHUNK_ID, chunks.get(0).id(), Field.Store.YES));
            doc.add(new StringField(LuceneLexicalIndex.PATH, chunks.get(0).path(), Field.Store.NO));
            doc.add(new KnnFloatVectorField("vector", vectors.get(0), VectorSimilarityFunction.COSINE));
            writer.addDocument(doc);
        }
        try (LuceneVectorIndex old = LuceneVectorIndex.open(dir, DIMS)) {
            assertThat(old.similarity()).isEqualTo(VectorSimilarityFunction.COSINE);

            old.upsert(chunks.subList(1, 50), vectors.subList(1, 50));

            float[] query = randomVector();
            assertThat(old.count()).isEqualTo(50);
            for (Hit hit : old.search(query, SearchScope.all(), 5)) {
                assertThat(hit.score()).isCloseTo(cosine(query, byId.get(hit.chunkId())), within(1e-4));
            }
        }
    }

    @Test
    void rejectsVectorsOfTheWrongShape() {
        assertThatThrownBy(() -> index.search(new float[3], SearchScope.all(), 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 dimensions");
        assertThatThrownBy(() -> index.upsert(List.of(chunks.get(0)), List.of(new float[DIMS])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("all zeros");
        assertThatThrownBy(() -> index.upsert(List.of(chunks.get(0)), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 chunks but 0 vectors");
        assertThat(index.count()).isEqualTo(N);
    }
}
