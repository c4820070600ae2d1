package io.poimen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.bench.eval.BeirBenchmark;
import io.poimen.bench.eval.BeirFolders;
import io.poimen.bench.eval.FusionReplay;
import io.poimen.bench.eval.JudgedSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench beir --dump-branches} on a real hub: the branch lists of each judged hybrid query are taken from
 * outside the query route (the production code leaves nothing behind for the bench to read).
 */
class BeirBenchmarkDumpTest {

    @TempDir
    Path dir;

    @Test
    void theDumpHoldsWhatEachBranchOfEveryJudgedHybridQueryAnswered() throws Exception {
        Path set = smallSet();
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

    /**
     * {@code bench beir --dataset} writes, per question, the term share of every chunk in its lists as the hub's
     * TF-IDF index gives it, so that {@code bench replay} scores the gate's coverage keep as the hub does.
     */
    @Test
    void aBeirSetsDumpHoldsTheHubsTermSharesOfEveryListedChunk() throws Exception {
        Path dump = dir.resolve("shares.json");

        int code = new CommandLine(new BenchBeirCommand()).execute("--dataset", smallSet().toString(),
                "--methods", "lexical,hybrid", "--dump-branches", dump.toString());

        assertThat(code).isZero();
        JsonNode q1 = new ObjectMapper().readTree(dump.toFile()).path("queries").path("q1");
        JsonNode shares = q1.path("shares");
        for (JsonNode list : q1.path("branches")) {
            list.forEach(hit -> assertThat(shares.has(hit.path(0).asText())).as("share of %s", hit).isTrue());
        }
        String pods = q1.path("branches").path("lexical").path(0).path(0).asText();
        assertThat(shares.path(pods).asDouble()).as("the pods passage holds the question's words").isGreaterThan(0.5);
        shares.fields().forEachRemaining(e -> {
            if (!e.getKey().equals(pods)) {
                assertThat(e.getValue().asDouble()).as(e.getKey()).isLessThan(shares.path(pods).asDouble());
            }
        });
        FusionReplay.Dump replay = FusionReplay.load(dump);
        FusionReplay.Query read = replay.queries().stream().filter(q -> q.id().equals("q1")).findFirst().orElseThrow();
        assertThat(replay.sharesFor(read).applyAsDouble(pods)).isEqualTo(shares.path(pods).asDouble());
    }

    /**
     * Two bench hubs on the same set in one process (several sets in one command, or tests) each index it: the
     * second does not find the first one's notes in a shared in-memory database and skip them as unchanged, and
     * the first one's database is gone once it closes.
     */
    @Test
    void aSecondBenchHubOnTheSameSetIndexesItAfresh() throws Exception {
        BenchContext.Options options = new BenchContext.Options();
        options.dataset = smallSet();
        options.policy = Path.of("policies/retrieval.yaml");
        String first;
        try (BenchContext bench = BenchContext.open(options)) {
            first = bench.inMemoryDatabase();
            assertThat(bench.ingest.chunks()).isEqualTo(3);
        }
        assertThatThrownBy(() -> java.sql.DriverManager.getConnection(first + ";IFEXISTS=TRUE", "sa", "").close())
                .isInstanceOf(java.sql.SQLException.class).hasMessageContaining("not found");

        try (BenchContext bench = BenchContext.open(options)) {
            assertThat(bench.ingest.chunks()).isEqualTo(3);
            Map<String, BeirBenchmark.MethodResult> lexical = new BeirBenchmark(bench.producer)
                    .run(JudgedSet.of(bench.set, bench.idByPath), List.of("lexical"), null);
            assertThat(lexical.get("lexical").ndcg10()).isEqualTo(1.0);
        }
    }

    /**
     * {@code bench beir} asks each branch for the policy's {@code candidates_per_branch}, as a hub runs it (the
     * fusion reads whole lists, so the depth moves the hybrid), unless {@code --candidates-per-branch} says
     * otherwise; the report says which.
     */
    @Test
    void theBenchAsksEachBranchForThePolicysCandidatesUnlessToldOtherwise() throws Exception {
        StringBuilder corpus = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            corpus.append("{\"_id\": \"d").append(i).append("\", \"title\": \"Restart ").append(i)
                    .append("\", \"text\": \"The pod restarted after crash number ").append(i).append(".\"}\n");
        }
        Path set = BeirFolders.write(dir.resolve("many"), corpus,
                "{\"_id\": \"q1\", \"text\": \"pod restarted after a crash\"}\n",
                "query-id\tcorpus-id\tscore\nq1\td7\t1\n");
        int policy = new io.poimen.memory.retrieval.RetrievalPolicy(Path.of("policies"),
                io.poimen.memory.index.EmbeddingModelChoice.defaultChoice()).current().candidatesPerBranch();

        for (Integer asked : new Integer[] {null, 7}) {
            Path dump = dir.resolve("depth-" + asked + ".json");
            Path out = dir.resolve("depth-" + asked + "-out.json");
            List<String> args = new ArrayList<>(List.of("--dataset", set.toString(), "--methods", "lexical",
                    "--dump-branches", dump.toString(), "--out", out.toString()));
            if (asked != null) {
                args.addAll(List.of("--candidates-per-branch", asked.toString()));
            }

            assertThat(new CommandLine(new BenchBeirCommand()).execute(args.toArray(String[]::new))).isZero();

            int expected = asked == null ? policy : asked;
            assertThat(new ObjectMapper().readTree(out.toFile()).path("candidates_per_branch").asInt())
                    .isEqualTo(expected);
            JsonNode lists = new ObjectMapper().readTree(dump.toFile()).path("queries").path("q1").path("branches");
            assertThat(lists.path("lexical").size()).as("BM25 hits, asked %s", asked).isEqualTo(expected);
        }
        assertThat(policy).isLessThan(60);
        assertThat(new CommandLine(new BenchBeirCommand()).execute("--dataset", set.toString(),
                "--candidates-per-branch", "0")).isEqualTo(2);
    }

    private Path smallSet() throws java.io.IOException {
        return BeirFolders.write(dir.resolve("set"), """
                {"_id": "pods", "title": "Pods", "text": "A pod in CrashLoopBackOff restarts until its probe passes."}
                {"_id": "db", "title": "Database", "text": "Rotate the database password every quarter."}
                {"_id": "dns", "title": "DNS", "text": "Resolver timeouts come from an overloaded CoreDNS deployment."}
                """, """
                {"_id": "q1", "text": "why does the pod restart in CrashLoopBackOff"}
                {"_id": "q2", "text": "how often to rotate the database password"}
                """, "query-id\tcorpus-id\tscore\nq1\tpods\t1\nq2\tdb\t1\n");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
