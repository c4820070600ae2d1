package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.retrieval.PlannedQuery;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.camel.ProducerTemplate;

/**
 * Runs every judged query of a set ({@link JudgedSet}: a BEIR set or a judged vault) through the query route
 * ({@code direct:query}, the route behind {@code POST /memory/query}) once per method, and scores the document
 * rankings.
 */
public class BeirBenchmark {
    /** Method name → request fields. */
    public static final Map<String, Map<String, String>> METHODS = new LinkedHashMap<>();

    static {
        METHODS.put("tfidf", Map.of("search_method", "tfidf"));
        METHODS.put("lexical", Map.of("search_method", "lexical"));
        METHODS.put("semantic", Map.of("search_method", "semantic"));
        METHODS.put("hybrid", Map.of("search_method", "hybrid"));
        METHODS.put("hybrid-calibrated", Map.of("search_method", "hybrid", "fusion", "calibrated"));
        METHODS.put("hybrid-weighted", Map.of("search_method", "hybrid", "fusion", "weighted"));
        METHODS.put("hybrid-rrf", Map.of("search_method", "hybrid", "fusion", "rrf"));
    }

    private final ProducerTemplate producer;
    private final ObjectMapper json = new ObjectMapper();

    public BeirBenchmark(ProducerTemplate producer) {
        this.producer = producer;
    }

    /** Scores and latencies of one method; {@code ndcgByQuery}: each judged query's nDCG@10 by query id. */
    public record MethodResult(double ndcg10, double recall100, double mrr10, LatencyStats total,
                               Map<String, LatencyStats> branches, Map<String, Double> ndcgByQuery) {
    }

    /**
     * Every method's figures; with {@code runDir}, also one TREC run file per method
     * ({@code qid Q0 doc rank score method}).
     */
    public Map<String, MethodResult> run(JudgedSet set, List<String> methods, java.nio.file.Path runDir) {
        Map<String, String> queries = set.judgedQueries();
        queries.keySet().stream().limit(5).forEach(q -> query(set, q, METHODS.get("hybrid"))); // warm-up
        Map<String, MethodResult> out = new LinkedHashMap<>();
        for (String method : methods) {
            Map<String, String> fields = METHODS.get(method);
            if (fields == null) {
                throw new IllegalArgumentException("unknown method " + method + "; known: " + METHODS.keySet());
            }
            double ndcg = 0;
            double recall = 0;
            double mrr = 0;
            LatencyStats total = new LatencyStats();
            Map<String, LatencyStats> branches = new LinkedHashMap<>();
            StringBuilder runFile = new StringBuilder();
            Map<String, Double> byQuery = new LinkedHashMap<>();
            for (Map.Entry<String, String> q : queries.entrySet()) {
                JsonNode response = query(set, q.getKey(), fields);
                List<String> ranked = documents(response, set);
                appendRun(runFile, q.getKey(), method, response, set);
                Map<String, Integer> qrels = set.qrels().get(q.getKey());
                double queryNdcg = RankingMetrics.ndcg(ranked, qrels, 10);
                byQuery.put(q.getKey(), queryNdcg);
                ndcg += queryNdcg;
                recall += RankingMetrics.recall(ranked, qrels, 100);
                mrr += RankingMetrics.mrr(ranked, qrels, 10);
                JsonNode t = response.path("timings_ms");
                total.add(t.path("total").asDouble());
                t.fieldNames().forEachRemaining(step -> {
                    if (!step.equals("total")) {
                        branches.computeIfAbsent(step, k -> new LatencyStats()).add(t.path(step).asDouble());
                    }
                });
            }
            writeRun(runDir, method, runFile);
            int n = Math.max(1, queries.size());
            out.put(method, new MethodResult(ndcg / n, recall / n, mrr / n, total, branches, byQuery));
        }
        return out;
    }

    /**
     * Runs every judged query once as a hybrid query and writes what each branch answered (chunk ids and raw
     * scores in the branch's order, the lists the fusion sees) with each chunk's document, so that fusion
     * variants can be scored offline against the qrels without ingesting the set again. With {@code shares}
     * (question text, project → chunk id → its term share, as the hub's gate reads them; null: none) each query
     * also holds the term share of every chunk in its lists, so that a replay scores the gate's
     * coverage keep without the set's text (a vault has no corpus file).
     */
    public void dumpBranches(JudgedSet set, Map<String, String> docByChunk, java.nio.file.Path file,
                             java.util.function.BiFunction<String, String, java.util.function.ToDoubleFunction<String>>
                                     shares) {
        Map<String, Object> queriesOut = new LinkedHashMap<>();
        try (BranchAnswerTap tap = BranchAnswerTap.on(producer.getCamelContext())) {
            for (Map.Entry<String, String> q : set.judgedQueries().entrySet()) {
                Map<String, Object> body = new LinkedHashMap<>(METHODS.get("hybrid"));
                body.put("project", set.project(q.getKey()));
                body.put("query", q.getValue());
                org.apache.camel.Exchange done = producer.send("direct:query", e -> {
                    try {
                        e.getMessage().setBody(json.writeValueAsBytes(body));
                    } catch (com.fasterxml.jackson.core.JsonProcessingException x) {
                        throw new IllegalStateException(x);
                    }
                });
                Map<String, Object> branches = new java.util.TreeMap<>();
                Map<String, Double> shared = new java.util.TreeMap<>();
                java.util.function.ToDoubleFunction<String> share = shares == null ? null
                        : shares.apply(q.getValue(), set.project(q.getKey()));
                for (BranchResult r : tap.take(done.getProperty(PlannedQuery.PROPERTY, PlannedQuery.class))) {
                    List<List<Object>> hits = new ArrayList<>();
                    r.hits().forEach(h -> hits.add(List.of(h.chunkId(), h.score())));
                    branches.put(r.branch().key(), r.answered() ? hits : Map.of("error", r.error()));
                    if (share != null) {
                        r.hits().forEach(h -> shared.computeIfAbsent(h.chunkId(), share::applyAsDouble));
                    }
                }
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("text", q.getValue());
                entry.put("project", set.project(q.getKey()));
                entry.put("branches", branches);
                if (share != null) {
                    entry.put("shares", shared);
                }
                queriesOut.put(q.getKey(), entry);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dataset", set.name());
        out.put("doc_by_chunk", docByChunk);
        out.put("qrels", set.qrels());
        out.put("queries", queriesOut);
        try {
            json.writeValue(file.toFile(), out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private JsonNode query(JudgedSet set, String queryId, Map<String, String> fields) {
        Map<String, Object> body = new LinkedHashMap<>(fields);
        body.put("project", set.project(queryId));
        body.put("query", set.judgedQueries().get(queryId));
        body.put("top_k", 100);
        body.put("budget_tokens", 200_000);
        try {
            String response = producer.requestBody("direct:query", json.writeValueAsBytes(body), String.class);
            return json.readTree(response);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("query route answered something that is not JSON", e);
        }
    }

    /** TREC run lines; the score of a single-branch method is the branch's raw score (max over a doc's chunks). */
    private static void appendRun(StringBuilder out, String qid, String method, JsonNode response, JudgedSet set) {
        Set<String> seen = new LinkedHashSet<>();
        int rank = 0;
        for (JsonNode r : response.path("results")) {
            String id = set.document(r.path("path").asText(), r.path("heading").asText());
            if (id == null || !seen.add(id)) {
                continue;
            }
            JsonNode branches = r.path("breakdown").path("branches");
            double score = branches.size() == 1 ? branches.elements().next().path("raw").asDouble()
                    : r.path("score").asDouble();
            out.append(qid).append(" Q0 ").append(id).append(' ').append(++rank).append(' ').append(score)
                    .append(' ').append(method).append('\n');
        }
    }

    private static void writeRun(java.nio.file.Path dir, String method, CharSequence lines) {
        if (dir == null) {
            return;
        }
        try {
            java.nio.file.Files.createDirectories(dir);
            java.nio.file.Files.writeString(dir.resolve(method + ".run"), lines);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Document ids in the order their first chunk appears. */
    static List<String> documents(JsonNode response, JudgedSet set) {
        Set<String> docs = new LinkedHashSet<>();
        for (JsonNode r : response.path("results")) {
            String id = set.document(r.path("path").asText(), r.path("heading").asText());
            if (id != null) {
                docs.add(id);
            }
        }
        return new ArrayList<>(docs);
    }
}
