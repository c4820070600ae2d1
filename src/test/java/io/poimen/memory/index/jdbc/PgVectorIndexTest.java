package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pgvector.PGvector;
import com.zaxxer.hikari.HikariDataSource;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link PgVectorIndex} against exact cosine search computed here. The {@value #PATHS} × {@value #CHUNKS_PER_PATH}
 * random chunks under {@code corpus/} are loaded once and never changed; tests that write use other paths.
 *
 * <p>Search tests run twice: with the plans PostgreSQL picks (on 2,000 rows it often prefers an exact scan), and on
 * connections with sequential scans and sorts disabled, so that the HNSW index must serve every query that it can.
 */
class PgVectorIndexTest {

    private static final int DIMS = 384;
    private static final int PATHS = 400;
    private static final int CHUNKS_PER_PATH = 5;
    private static final int CORPUS = PATHS * CHUNKS_PER_PATH;

    private static DataSource dataSource;
    private static PgVectorIndex index;
    private static HikariDataSource hnswOnlyDataSource;
    private static PgVectorIndex hnswOnly;
    private static Map<String, float[]> corpus;
    private static Map<String, String> pathOf;

    @BeforeAll
    static void loadCorpus() {
        dataSource = TestPostgres.freshDatabase("pg_vector_index");
        index = new PgVectorIndex(dataSource, DIMS);
        Random random = new Random(42);
        List<Chunk> chunks = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int p = 0; p < PATHS; p++) {
            for (int c = 0; c < CHUNKS_PER_PATH; c++) {
                chunks.add(chunk("corpus/note-" + p + ".md", c));
                vectors.add(randomVector(random));
            }
        }
        index.upsert(chunks, vectors);
        new JdbcTemplate(dataSource).execute("analyze chunk_vectors");
        String url = ((HikariDataSource) dataSource).getJdbcUrl();
        hnswOnlyDataSource = new HikariDataSource();
        hnswOnlyDataSource.setJdbcUrl(url + (url.contains("?") ? "&" : "?")
                + "options=-c%20enable_seqscan%3Doff%20-c%20enable_sort%3Doff");
        hnswOnlyDataSource.setMaximumPoolSize(2);
        hnswOnly = new PgVectorIndex(hnswOnlyDataSource, DIMS);
        corpus = IntStream.range(0, CORPUS).boxed()
                .collect(Collectors.toMap(i -> chunks.get(i).id(), vectors::get));
        pathOf = chunks.stream().collect(Collectors.toMap(Chunk::id, Chunk::path));
    }

    @AfterAll
    static void closePool() {
        hnswOnlyDataSource.close();
    }

    static Stream<Arguments> plans() {
        return Stream.of(Arguments.of("planner's choice", index), Arguments.of("HNSW forced", hnswOnly));
    }

    @Test
    void forcedConnectionsReallyPlanTheHnswIndexForScopedQueries() {
        float[] query = randomVector(new Random(23));
        String[] scope = {"corpus/note-1.md", "corpus/note-2.md"};
        List<String> plan = new JdbcTemplate(hnswOnlyDataSource).query("explain " + PgVectorIndex.SEARCH_SCOPED,
                (rs, row) -> rs.getString(1), new PGvector(query), scope, new PGvector(query), 10);

        assertThat(String.join("\n", plan)).contains("Index Scan using chunk_vectors_embedding_idx");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plans")
    void unscopedSearchFindsTheExactNearestNeighboursWithCosineScores(String plan, PgVectorIndex index) {
        Random random = new Random(7);
        int queries = 40;
        int k = 10;
        double found = 0;
        for (int q = 0; q < queries; q++) {
            float[] query = randomVector(random);
            List<Hit> hits = index.search(query, SearchScope.all(), k);

            assertThat(hits).hasSize(k);
            assertThat(hits).isSortedAccordingTo(Comparator.comparingDouble(Hit::score).reversed());
            for (Hit hit : hits) {
                assertThat(hit.score()).isCloseTo(cosine(query, corpus.get(hit.chunkId())),
                        org.assertj.core.data.Offset.offset(1e-4));
            }
            Set<String> exact = exactTop(query, corpus.keySet(), k);
            found += hits.stream().filter(hit -> exact.contains(hit.chunkId())).count();
        }
        double recall = found / (queries * k);
        System.out.printf("pgvector recall@%d over %d random queries on %d vectors (%s): %.3f%n", k, queries,
                CORPUS, plan, recall);
        assertThat(recall).isGreaterThanOrEqualTo(0.9);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plans")
    void kAboveEfSearchStillReturnsKRows(String plan, PgVectorIndex index) {
        float[] query = randomVector(new Random(19));
        for (int k : new int[] {PgVectorIndex.DEFAULT_EF_SEARCH + 50, PgVectorIndex.MAX_EF_SEARCH + 200}) {
            List<Hit> hits = index.search(query, SearchScope.all(), k);

            assertThat(hits).as("k=%d", k).hasSize(k);
            assertThat(hits).extracting(Hit::chunkId).doesNotHaveDuplicates();
            assertThat(hits).isSortedAccordingTo(Comparator.comparingDouble(Hit::score).reversed());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plans")
    void scopedSearchReturnsMinOfKAndScopeSizeAndNothingOutOfScope(String plan, PgVectorIndex index) {
        Random random = new Random(11);
        for (int scopePaths : new int[] {1, 3, 40, 200}) {
            Set<String> paths = IntStream.range(0, scopePaths).map(i -> (i * 7 + scopePaths) % PATHS)
                    .mapToObj(i -> "corpus/note-" + i + ".md").collect(Collectors.toSet());
            Set<String> inScope = corpus.keySet().stream().filter(id -> paths.contains(pathOf.get(id)))
                    .collect(Collectors.toSet());
            for (int k : new int[] {1, 10, 50}) {
                float[] query = randomVector(random);
                List<Hit> hits = index.search(query, SearchScope.of(paths), k);

                assertThat(hits).as("scope of %d paths, k=%d", scopePaths, k).hasSize(Math.min(k, inScope.size()));
                assertThat(hits).extracting(Hit::chunkId).doesNotHaveDuplicates().allMatch(inScope::contains);
                assertThat(hits).isSortedAccordingTo(Comparator.comparingDouble(Hit::score).reversed());
                Set<String> exact = exactTop(query, inScope, k);
                long overlap = hits.stream().filter(hit -> exact.contains(hit.chunkId())).count();
                assertThat((double) overlap / exact.size()).as("recall in scope of %d paths, k=%d", scopePaths, k)
                        .isGreaterThanOrEqualTo(0.8);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plans")
    void equalDistancesAreRankedByChunkId(String plan, PgVectorIndex index) {
        float[] same = randomVector(new Random(7));
        List<Chunk> chunks = new ArrayList<>();
        for (String name : List.of("e", "d", "c", "b", "a")) {
            chunks.add(chunk("ties-" + plan.charAt(0) + "/" + name + ".md", 0));
        }
        List<String> paths = chunks.stream().map(Chunk::path).toList();
        index.upsert(chunks, chunks.stream().map(c -> same).toList());
        try {
            List<Hit> hits = index.search(same, SearchScope.of(Set.copyOf(paths)), 5);
            assertThat(hits).extracting(Hit::chunkId).isSortedAccordingTo(Comparator.naturalOrder()).hasSize(5);
            assertThat(hits).isSortedAccordingTo(Hit.BEST_FIRST);
        } finally {
            index.deleteByPaths(paths); // the unscoped searches compare with the corpus alone
        }
    }

    @Test
    void emptyScopeOrNonPositiveKFindsNothing() {
        float[] query = randomVector(new Random(5));
        assertThat(index.search(query, SearchScope.of(Set.of()), 10)).isEmpty();
        assertThat(index.search(query, SearchScope.of(Set.of("corpus/no-such-note.md")), 10)).isEmpty();
        assertThat(index.search(query, SearchScope.all(), 0)).isEmpty();
    }

    @Test
    void upsertReplacesTheVectorOfAnExistingChunk() {
        Random random = new Random(13);
        Chunk chunk = chunk("upsert/a.md", 0);
        float[] first = randomVector(random);
        float[] second = randomVector(random);
        index.upsert(List.of(chunk), List.of(first));
        long count = index.count();

        index.upsert(List.of(chunk), List.of(second));

        assertThat(index.count()).isEqualTo(count);
        SearchScope scope = SearchScope.of(Set.of("upsert/a.md"));
        assertThat(index.search(second, scope, 1)).singleElement()
                .satisfies(hit -> assertThat(hit.score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5)));
        assertThat(index.search(first, scope, 1).get(0).score())
                .isCloseTo(cosine(first, second), org.assertj.core.data.Offset.offset(1e-5));
        index.deleteByPath("upsert/a.md");
    }

    @Test
    void deleteByPathsRemovesTheChunksOfEveryGivenPath() {
        Random random = new Random(19);
        List<Chunk> chunks = List.of(chunk("many/a.md", 0), chunk("many/b.md", 0), chunk("many/b.md", 1),
                chunk("many/c.md", 0));
        long before = index.count();
        index.upsert(chunks, chunks.stream().map(c -> randomVector(random)).toList());

        index.deleteByPaths(List.of("many/a.md", "many/b.md", "many/none.md"));

        assertThat(index.count()).isEqualTo(before + 1);
        assertThat(index.search(randomVector(random), SearchScope.of(Set.of("many/a.md", "many/b.md", "many/c.md")), 10))
                .extracting(Hit::chunkId).containsExactly("many/c.md#0");
        index.deleteByPaths(List.of("many/c.md"));
    }

    @Test
    void deleteByPathRemovesOnlyThatPathsChunks() {
        Random random = new Random(17);
        List<Chunk> chunks = List.of(chunk("delete/gone.md", 0), chunk("delete/gone.md", 1),
                chunk("delete/kept.md", 0));
        List<float[]> vectors = chunks.stream().map(c -> randomVector(random)).toList();
        long before = index.count();
        index.upsert(chunks, vectors);
        assertThat(index.count()).isEqualTo(before + 3);

        index.deleteByPath("delete/gone.md");

        assertThat(index.count()).isEqualTo(before + 1);
        assertThat(index.search(vectors.get(0), SearchScope.of(Set.of("delete/gone.md", "delete/kept.md")), 10))
                .extracting(Hit::chunkId).containsExactly("delete/kept.md#0");
        assertThat(index.search(vectors.get(0), SearchScope.all(), 5)).extracting(Hit::chunkId)
                .doesNotContain("delete/gone.md#0", "delete/gone.md#1");
        index.deleteByPath("delete/kept.md");
        assertThat(index.count()).isEqualTo(before);
    }

    @Test
    void vectorsOfTheWrongSizeAreRejectedBeforeAnythingIsWritten() {
        long before = index.count();
        List<Chunk> chunks = List.of(chunk("bad/a.md", 0), chunk("bad/a.md", 1));

        Random random = new Random(23);
        assertThatThrownBy(() -> index.upsert(chunks, List.of(randomVector(random), new float[DIMS - 1])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad/a.md#1")
                .hasMessageContaining("383");
        assertThatThrownBy(() -> index.upsert(chunks, List.of(randomVector(random), new float[DIMS])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("all zeros");
        assertThatThrownBy(() -> index.upsert(chunks, List.of(new float[DIMS])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> index.search(new float[3], SearchScope.all(), 5))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(index.count()).isEqualTo(before);
        assertThat(index.name()).isEqualTo("pgvector");
    }

    private static Set<String> exactTop(float[] query, Set<String> ids, int k) {
        Function<String, Double> similarity = id -> cosine(query, corpus.get(id));
        return ids.stream().sorted(Comparator.comparing(similarity).reversed()).limit(k)
                .collect(Collectors.toCollection(HashSet::new));
    }

    /** cos(a, b) = a·b / (|a| |b|). */
    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * (double) b[i];
            na += a[i] * (double) a[i];
            nb += b[i] * (double) b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    private static float[] randomVector(Random random) {
        float[] vector = new float[DIMS];
        for (int i = 0; i < DIMS; i++) {
            vector[i] = (float) random.nextGaussian();
        }
        return vector;
    }

    private static Chunk chunk(String path, int ordinal) {
        return new Chunk(Chunk.idOf(path, ordinal), path, null, ordinal, "h", List.of("h"), "text", 1,
                new ChunkMetadata("h", "text", List.of(), ChunkMetadata.CONCEPT), List.of());
    }
}
