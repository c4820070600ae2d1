package io.poimen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.bench.eval.FusionReplay;
import io.poimen.bench.eval.JudgedVault;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench beir --judged VAULT=QUESTIONS} on a real hub: a vault judged per section (path#heading), its
 * questions asked in their own projects, and a dump that carries the hub's term shares.
 */
class BenchBeirJudgedVaultTest {

    @TempDir
    Path dir;

    @Test
    void aVaultJudgedPerSectionIsScoredAndDumpedWithItsTermShares() throws Exception {
        Path vault = dir.resolve("vault");
        Files.createDirectories(vault.resolve("projects/ops"));
        Files.createDirectories(vault.resolve("projects/data"));
        Files.writeString(vault.resolve("projects/ops/pods.md"), """
                # Pods

                How the team runs its workloads on the cluster.

                ## CrashLoopBackOff

                A pod in CrashLoopBackOff restarts until its liveness probe passes; read the previous container's log.

                ## Evictions

                The kubelet evicts pods when the node runs short of memory or disk.
                """);
        Files.writeString(vault.resolve("projects/data/passwords.md"), """
                # Database passwords

                ## Rotation

                Rotate the database password every quarter and store it in the vault of secrets.
                """);
        Files.writeString(vault.resolve("projects/data/backups.md"), """
                # Backups

                Nightly snapshots of the warehouse are kept for thirty days in cold storage.
                """);
        Files.writeString(vault.resolve("projects/data/schema.md"), """
                # Schema changes

                Every migration is reviewed by two people and applied in a maintenance window.
                """);
        Path questions = dir.resolve("ops-questions.jsonl");
        Files.writeString(questions, """
                {"id": "a", "project": "ops", "query": "pod restarts in CrashLoopBackOff liveness probe", "relevant": [{"path": "projects/ops/pods.md", "heading": "CrashLoopBackOff", "grade": 2}]}
                {"id": "b", "project": "data", "query": "how often to rotate the database password", "relevant": [{"path": "projects/data/passwords.md", "heading": "Rotation", "grade": 2}]}
                """);
        Path dumps = dir.resolve("dump.json"); // one set: the dump is this file
        Path out = dir.resolve("out.json");

        int code = new CommandLine(new BenchBeirCommand()).execute("--judged", vault + "=" + questions,
                "--methods", "lexical,hybrid", "--dump-branches", dumps.toString(), "--out", out.toString());

        assertThat(code).isZero();
        JsonNode report = new ObjectMapper().readTree(out.toFile());
        assertThat(report.path("dataset").asText()).isEqualTo("ops-questions");
        assertThat(report.path("methods").path("lexical").path("ndcg@10").asDouble()).isEqualTo(1.0);
        JsonNode written = new ObjectMapper().readTree(Files.readString(dumps));
        assertThat(written.path("doc_by_chunk").toString()).contains("projects/ops/pods.md#CrashLoopBackOff",
                "projects/data/passwords.md#Rotation");
        assertThat(written.path("qrels").path("b").path("projects/data/passwords.md#Rotation").asInt()).isEqualTo(2);
        JsonNode b = written.path("queries").path("b");
        assertThat(b.path("project").asText()).isEqualTo("data");
        String answer = b.path("branches").path("lexical").path(0).path(0).asText();
        assertThat(written.path("doc_by_chunk").path(answer).asText()).isEqualTo("projects/data/passwords.md#Rotation");
        assertThat(b.path("shares").path(answer).asDouble()).as("the answer holds the question's words").isGreaterThan(0.5);
        b.path("branches").fields().forEachRemaining(branch -> branch.getValue().forEach(hit ->
                assertThat(b.path("shares").has(hit.path(0).asText())).as("share of %s", hit).isTrue()));

        FusionReplay.Dump replay = FusionReplay.load(dumps);
        FusionReplay.Query q = replay.queries().stream().filter(x -> x.id().equals("b")).findFirst().orElseThrow();
        assertThat(replay.sharesFor(q).applyAsDouble(answer)).isEqualTo(b.path("shares").path(answer).asDouble());
    }

    @Test
    void aQuestionsFileThatIsNotJudgedPerSectionIsRefusedNamingTheLine() throws Exception {
        Path questions = dir.resolve("bad.jsonl");
        Files.writeString(questions, """
                {"id": "a", "project": "ops", "query": "pods", "relevant": [{"path": "p.md", "heading": "P", "grade": 1}]}
                {"id": "b", "query": "no project", "relevant": []}
                """);
        assertThatThrownBy(() -> JudgedVault.load(dir, questions)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2").hasMessageContaining("project");
        assertThat(new CommandLine(new BenchBeirCommand()).execute("--judged", dir + "=" + questions)).isEqualTo(2);
        assertThat(new CommandLine(new BenchBeirCommand()).execute("--judged", dir.toString())).isEqualTo(2);
        assertThat(new CommandLine(new BenchBeirCommand()).execute("--methods", "lexical")).isEqualTo(2);
    }
}
