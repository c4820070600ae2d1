package io.poimen.memory.retrieval.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.retrieval.fusion.FusionMethod;
import io.poimen.memory.retrieval.fusion.FusionSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scores fusion methods offline on the branch lists {@code bench beir --dump-branches} wrote: the same lists the
 * route's fusion saw, fused again with any method or parameters in milliseconds, ranked by document as
 * {@link BeirBenchmark} does (near-duplicate removal, which happens after fusion, is left out).
 */
public final class FusionReplay {

    /** One judged query: what each branch answered, and the judgments. */
    public record Query(String id, List<BranchResult> branches, Map<String, Integer> qrels) {
    }

    /** A dumped set. */
    public record Dump(String name, Map<String, String> docByChunk, List<Query> queries) {
    }

    private FusionReplay() {
    }

    public static Dump load(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        Map<String, String> docs = new HashMap<>();
        root.path("doc_by_chunk").fields().forEachRemaining(e -> docs.put(e.getKey(), e.getValue().asText()));
        List<Query> queries = new ArrayList<>();
        root.path("queries").fields().forEachRemaining(q -> {
            Map<String, Integer> qrels = new HashMap<>();
            root.path("qrels").path(q.getKey()).fields()
                    .forEachRemaining(e -> qrels.put(e.getKey(), e.getValue().asInt()));
            List<BranchResult> branches = new ArrayList<>();
            q.getValue().path("branches").fields().forEachRemaining(b -> {
                Branch branch = Branch.ofKey(b.getKey());
                if (b.getValue().isObject()) {
                    branches.add(BranchResult.failed(branch, b.getValue().path("error").asText(), 0));
                } else {
                    List<Hit> hits = new ArrayList<>();
                    b.getValue().forEach(h -> hits.add(new Hit(h.get(0).asText(), h.get(1).asDouble())));
                    branches.add(BranchResult.ok(branch, hits, 0));
                }
            });
            if (!qrels.isEmpty()) {
                queries.add(new Query(q.getKey(), branches, qrels));
            }
        });
        return new Dump(root.path("dataset").asText(file.getFileName().toString()), docs, queries);
    }

    /** Mean nDCG@10 of {@code method} over the dump's queries. */
    public static double ndcg10(Dump dump, FusionMethod method, FusionSettings settings) {
        double sum = 0;
        for (Query q : dump.queries()) {
            List<String> chunks = method.fuse(q.branches(), settings).stream().map(FusedCandidate::chunkId).toList();
            sum += RankingMetrics.ndcg(documents(dump, chunks), q.qrels(), 10);
        }
        return sum / Math.max(1, dump.queries().size());
    }

    /** Mean nDCG@10 of one branch's own order. */
    public static double ndcg10(Dump dump, String branch) {
        double sum = 0;
        for (Query q : dump.queries()) {
            List<String> chunks = q.branches().stream().filter(b -> b.branch().key().equals(branch))
                    .flatMap(b -> b.hits().stream()).map(Hit::chunkId).toList();
            sum += RankingMetrics.ndcg(documents(dump, chunks), q.qrels(), 10);
        }
        return sum / Math.max(1, dump.queries().size());
    }

    private static List<String> documents(Dump dump, List<String> chunks) {
        Set<String> docs = new LinkedHashSet<>();
        chunks.forEach(c -> docs.add(dump.docByChunk().getOrDefault(c, c)));
        return new ArrayList<>(docs);
    }
}
