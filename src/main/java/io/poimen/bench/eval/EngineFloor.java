package io.poimen.bench.eval;

import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.lucene.LuceneLexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.jdbc.PgVectorIndex;
import io.poimen.memory.index.lucene.LuceneVectorIndex;
import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.retrieval.query.NormalizedQuery;
import io.poimen.memory.retrieval.query.QueryNormalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the engines cost on their own, on the hub's own indexes and the same query texts: the embedding model
 * alone, the lexical branch's BM25 query and the semantic branch's HNSW k-NN (the same request the branch sends,
 * without the scope), TF-IDF scoring; and the floor of a hybrid query, embedding + BM25 + HNSW run one after the
 * other. The engine calls are timed one query at a time.
 *
 * <p>On the prod stores the branch's own store call is timed with the route's scope (the project filter), next to
 * what the engine reports for it: OpenSearch's {@code took} (summed over the call's round trips) and PostgreSQL's
 * execution time of the pgvector statement ({@code EXPLAIN (ANALYZE, TIMING OFF)} of the same statement with the
 * same settings, run right after the call).
 */
public final class EngineFloor {
    public static final String EMBEDDING = "embedding";
    public static final String BM25 = "bm25";
    public static final String HNSW = "hnsw";
    public static final String TFIDF = "tfidf";
    public static final String FLOOR = "floor";
    public static final String OPENSEARCH_CALL = "opensearch_call";
    public static final String OPENSEARCH_TOOK = "opensearch_took";
    public static final String PGVECTOR_CALL = "pgvector_call";
    public static final String PGVECTOR_EXECUTION = "pgvector_execution";

    private EngineFloor() {
    }

    /**
     * @return step → latencies; BM25 and HNSW only when the stores are the embedded Lucene ones (a remote engine's
     *         own call has no in-process twin)
     */
    public static Map<String, LatencyStats> measure(List<String> queries, int requests, EmbeddingModel model,
                                                    LexicalIndex lexical, VectorIndex vectors, TfIdfIndex tfidf,
                                                    String project, int k) {
        return measure(queries, requests, model, lexical, vectors, tfidf, project, SearchScope.all(), k);
    }

    /** @param scope the route's scope for the prod stores' calls (the Lucene ones search without a scope) */
    public static Map<String, LatencyStats> measure(List<String> queries, int requests, EmbeddingModel model,
                                                    LexicalIndex lexical, VectorIndex vectors, TfIdfIndex tfidf,
                                                    String project, SearchScope scope, int k) {
        QueryNormalizer normalizer = new QueryNormalizer();
        Map<String, LatencyStats> out = new LinkedHashMap<>();
        for (String s : List.of(EMBEDDING, BM25, OPENSEARCH_CALL, OPENSEARCH_TOOK, HNSW, PGVECTOR_CALL,
                PGVECTOR_EXECUTION, TFIDF, FLOOR)) {
            out.put(s, new LatencyStats());
        }
        for (int i = 0; i < requests; i++) {
            NormalizedQuery q = normalizer.normalize(queries.get(i % queries.size()));
            String text = q.text().isBlank() ? queries.get(i % queries.size()) : q.text();
            long t0 = System.nanoTime();
            float[] vector = model.embed(text).content().vector();
            double embed = add(out, EMBEDDING, t0);
            double floor = embed;
            if (lexical instanceof LuceneLexicalIndex lucene) {
                long t = System.nanoTime();
                lucene.plainSearch(text, k);
                floor += add(out, BM25, t);
            }
            if (lexical instanceof OpenSearchLexicalIndex openSearch) {
                // its took, as the index records it for monitoring (nothing else searches meanwhile)
                double tookBefore = openSearch.engineTime().totalTime(TimeUnit.MILLISECONDS);
                long t = System.nanoTime();
                openSearch.search(text, scope, k);
                floor += add(out, OPENSEARCH_CALL, t);
                out.get(OPENSEARCH_TOOK).add(openSearch.engineTime().totalTime(TimeUnit.MILLISECONDS) - tookBefore);
            }
            if (vectors instanceof LuceneVectorIndex lucene) {
                long t = System.nanoTime();
                lucene.plainSearch(vector, k);
                floor += add(out, HNSW, t);
            }
            if (vectors instanceof PgVectorIndex pgvector) {
                long t = System.nanoTime();
                pgvector.search(vector, scope, k);
                floor += add(out, PGVECTOR_CALL, t);
                out.get(PGVECTOR_EXECUTION).add(PgVectorExplain.executionMillis(pgvector, vector, scope, k));
            }
            long t = System.nanoTime();
            tfidf.search(q.terms(), project, null, k);
            add(out, TFIDF, t);
            out.get(FLOOR).add(floor);
        }
        out.values().removeIf(LatencyStats::isEmpty);
        return out;
    }

    private static double add(Map<String, LatencyStats> out, String step, long startNanos) {
        double ms = (System.nanoTime() - startNanos) / 1e6;
        out.get(step).add(ms);
        return ms;
    }
}
