package io.poimen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.bench.eval.BeirBenchmark;
import io.poimen.bench.eval.JudgedSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench beir --dump-branches} on a real hub: the branch lists of each judged hybrid query are taken from
 * outside the query route (the production code leaves nothing behind for the bench to read).
 */
class BeirBenchmarkDumpTest {

    @TempDir
    Path dir;

    @Test
    void theDumpHoldsWhatEachBranchOfEveryJudgedHybridQueryAnswered() throws Exception {
        Path set = Files.createDirectories(dir.resolve("set").resolve("qrels")).getParent();
        Files.writeString(set.resolve("corpus.jsonl"), """
                {"_id": "pods", "title": "Pods", "text": "A pod in CrashLoopBackOff restarts until its probe passes."}
                {"_id": "db", "title": "Database", "text": "Rotate the database password every quarter."}
                {"_id": "dns", "title": "DNS", "text": "Resolver timeouts come from an overloaded CoreDNS deployment."}
                """);
        Files.writeString(set.resolve("queries.jsonl"), """
                {"_id": "q1", "text": "why does the pod restart in CrashLoopBackOff"}
                {"_id": "q2", "text": "how often to rotate the database password"}
                """);
        Files.writeString(set.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\tpods\t1\nq2\tdb\t1\n");
        BenchContext.Options options = new BenchContext.Options();
        options.dataset = set;
        options.policy = Path.of("policies/retrieval.yaml");
        Path dump = dir.resolve("dump.json");

        try (BenchContext bench = BenchContext.open(options)) {
            new BeirBenchmark(bench.producer).dumpBranches(JudgedSet.of(bench.set, bench.idByPath), Map.of(), dump,
                    null);

            JsonNode queries = new ObjectMapper().readTree(dump.toFile()).path("queries");
            assertThat(queries.size()).isEqualTo(2);
            Map<String, String> relevant = Map.of("q1", "pods", "q2", "db");
            for (Map.Entry<String, String> q : relevant.entrySet()) {
                JsonNode branches = queries.path(q.getKey()).path("branches");
                assertThat(fieldNames(branches)).as(q.getKey()).containsExactly("lexical", "semantic", "tfidf");
                for (String branch : fieldNames(branches)) {
                    JsonNode hits = branches.path(branch);
                    assertThat(hits.isArray()).as("%s %s answered", q.getKey(), branch).isTrue();
                    assertThat(hits.size()).as("%s %s hits", q.getKey(), branch).isPositive();
                    String first = hits.path(0).path(0).asText();
                    assertThat(bench.idByPath.get(first.substring(0, first.lastIndexOf('#'))))
                            .as("%s %s first hit", q.getKey(), branch).isEqualTo(q.getValue());
                }
            }
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
