package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.jdbc.PgVectorIndex;
import io.poimen.memory.index.lucene.LexicalIndexContract;
import io.poimen.memory.index.lucene.LuceneLexicalIndex;
import io.poimen.memory.index.lucene.LuceneVectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The engine floor that the latency targets are stated against: what it times and how it adds up. */
class EngineFloorTest {
    static final EmbeddingModel MODEL = new AllMiniLmL6V2QuantizedEmbeddingModel();
    static final List<String> QUERIES = List.of("pod restarts in CrashLoopBackOff", "rotate the database password");

    @Test
    void theFloorOfEachRequestIsItsEmbeddingPlusBm25PlusHnswOnTheEmbeddedStores() throws Exception {
        List<Chunk> chunks = List.of(
                LexicalIndexContract.chunk("projects/p/pods.md", 0, "Pods", List.of("Pods"),
                        "A pod in CrashLoopBackOff restarts until its probe passes.", List.of()),
                LexicalIndexContract.chunk("projects/p/db.md", 0, "Database", List.of("Database"),
                        "Rotate the database password every quarter.", List.of()));
        try (LuceneLexicalIndex lexical = LuceneLexicalIndex.inMemory();
             LuceneVectorIndex vectors = LuceneVectorIndex.inMemory(384)) {
            lexical.upsert(chunks);
            vectors.upsert(chunks, chunks.stream().map(c -> MODEL.embed(c.text()).content().vector()).toList());
            TfIdfIndex tfidf = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
            chunks.forEach(c -> tfidf.replacePath(c.path(), List.of(c)));

            Map<String, LatencyStats> steps = EngineFloor.measure(QUERIES, 6, MODEL, lexical, vectors, tfidf, "p", 10);

            assertThat(steps).containsOnlyKeys(EngineFloor.EMBEDDING, EngineFloor.BM25, EngineFloor.HNSW,
                    EngineFloor.TFIDF, EngineFloor.FLOOR);
            double parts = steps.get(EngineFloor.EMBEDDING).mean() + steps.get(EngineFloor.BM25).mean()
                    + steps.get(EngineFloor.HNSW).mean();
            assertThat(steps.get(EngineFloor.FLOOR).mean()).isCloseTo(parts, within(1e-9));
            assertThat(steps.get(EngineFloor.FLOOR).percentile(0)).isPositive();
            // TF-IDF is timed but not part of the floor (the hybrid route runs it in parallel with the others)
            assertThat(steps.get(EngineFloor.TFIDF).mean()).isPositive();
        }
    }

    @Test
    void withRemoteStoresOnlyTheEmbeddingIsInTheFloor() {
        TfIdfIndex tfidf = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);

        Map<String, LatencyStats> steps = EngineFloor.measure(QUERIES, 3, MODEL, null, null, tfidf, "p", 10);

        assertThat(steps).containsOnlyKeys(EngineFloor.EMBEDDING, EngineFloor.TFIDF, EngineFloor.FLOOR);
        assertThat(steps.get(EngineFloor.FLOOR).mean()).isCloseTo(steps.get(EngineFloor.EMBEDDING).mean(),
                within(1e-9));
    }

    @Test
    void onPgvectorTheStoresCallIsInTheFloorAndPostgresExecutionIsTimedBesideIt() {
        PgVectorIndex vectors = new PgVectorIndex(TestPostgres.freshDatabase("engine_floor"), 384);
        Chunk chunk = LexicalIndexContract.chunk("projects/p/pods.md", 0, "Pods", List.of("Pods"),
                "A pod in CrashLoopBackOff restarts until its probe passes.", List.of());
        vectors.upsert(List.of(chunk), List.of(MODEL.embed(chunk.text()).content().vector()));
        TfIdfIndex tfidf = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);

        Map<String, LatencyStats> steps = EngineFloor.measure(QUERIES, 4, MODEL, null, vectors, tfidf, "p",
                SearchScope.of(Set.of("projects/p/pods.md")), 10);

        assertThat(steps).containsOnlyKeys(EngineFloor.EMBEDDING, EngineFloor.PGVECTOR_CALL,
                EngineFloor.PGVECTOR_EXECUTION, EngineFloor.TFIDF, EngineFloor.FLOOR);
        assertThat(steps.get(EngineFloor.FLOOR).mean()).isCloseTo(steps.get(EngineFloor.EMBEDDING).mean()
                + steps.get(EngineFloor.PGVECTOR_CALL).mean(), within(1e-9));
        assertThat(steps.get(EngineFloor.PGVECTOR_EXECUTION).percentile(0)).isPositive();
    }
}
