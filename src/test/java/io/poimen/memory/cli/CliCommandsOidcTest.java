package io.poimen.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import picocli.CommandLine;

/**
 * The {@code query} and {@code ingest} commands run for real: {@code query} against the hub in oidc mode over HTTP
 * with a bearer token, {@code ingest} into stores of its own and into the running hub's locked data folder.
 */
class CliCommandsOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String QUESTION = "how do I fix a pod in CrashLoopBackOff";

    @Autowired
    PoimenProperties properties;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cli = PoimenCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    @Test
    void queryPrintsTheSelectedContextTextAndJsonPrintsTheWholeAnswer() throws Exception {
        Run text = run("query", "--url", url(), "--project", "poimen", "--token", charlie(), QUESTION);
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).startsWith("── projects/poimen/").contains("CrashLoopBackOff")
                .contains("projects/poimen/debugging/pod-crashes.md").doesNotContain("breakdown", "doc_id");
        assertThat(text.err()).containsPattern("\\d+ chunks, \\d+ of \\d+ tokens; strategy hybrid");

        Run json = run("query", "--url", url(), "--project", "poimen", "--token", charlie(), "--json", QUESTION);
        assertThat(json.code()).as(json.err()).isZero();
        JsonNode answer = JSON.readTree(json.out());
        assertThat(answer.path("results")).isNotEmpty();
        assertThat(answer.path("results").get(0).path("breakdown").path("fusion").asText()).isNotBlank();
        // the text form prints exactly the context the JSON answer selected, in its order
        assertThat(text.out().lines().filter(l -> l.startsWith("── ")).count())
                .isEqualTo(answer.path("context").path("chunks").size());
    }

    @Test
    void queryWithoutATokenOrForADeniedProjectIsAnErrorLineAndExitCodeOne() {
        Run anonymous = run("query", "--url", url(), "--project", "poimen", "--token", "", QUESTION);
        assertThat(anonymous.code()).isEqualTo(1);
        assertThat(anonymous.err()).startsWith("error 401: unauthorized");
        assertThat(anonymous.out()).isEmpty();

        Run denied = run("query", "--url", url(), "--project", "ml-training", "--token", charlie(), PLANTED_TEXT);
        assertThat(denied.code()).isEqualTo(1);
        assertThat(denied.err()).startsWith("error 403: ");
        assertThat(denied.out() + denied.err()).doesNotContain(PLANTED_TEXT + " for");

        Run nobody = run("query", "--url", "http://127.0.0.1:1", "--project", "poimen", QUESTION);
        assertThat(nobody.code()).isEqualTo(3);
        assertThat(nobody.err()).startsWith("error: no hub answering at http://127.0.0.1:1");
    }

    @Test
    void ingestWritesItsOwnStoresIncrementallyAndALockedDataFolderIsOneLineAndExitTwo() {
        Path data = Path.of("target/it-cli-ingest/data-" + UUID.randomUUID()).toAbsolutePath();
        String[] own = {"ingest", "--vault", VAULT.toString(), "--poimen.data.dir=" + data,
                "--spring.datasource.url=jdbc:h2:file:" + data + "/h2;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;"
                        + "DEFAULT_NULL_ORDERING=HIGH"};
        Run first = run(own);
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).containsPattern("notes: \\d+ \\(changed [1-9]\\d*, removed 0\\), chunks written: [1-9]");
        Run again = run(own);
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).contains("(changed 0, removed 0), chunks written: 0");

        // the folder the hub's stores opened (the property itself is a new ${random.uuid} on every read)
        Path hubData = properties.data().dir().toAbsolutePath();
        Run locked = run("ingest", "--vault", VAULT.toString(), "--poimen.data.dir=" + hubData,
                "--spring.datasource.url=jdbc:h2:mem:cli-locked-" + UUID.randomUUID() + ";MODE=PostgreSQL;"
                        + "DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH");
        assertThat(locked.code()).as(locked.out() + locked.err()).isEqualTo(2);
        assertThat(locked.err().lines().toList()).hasSize(1);
        assertThat(locked.err()).startsWith("error: the data folder is in use (Lucene index lock")
                .contains("--poimen.data.dir=DIR", "/memory/admin/reindex");
    }
}
