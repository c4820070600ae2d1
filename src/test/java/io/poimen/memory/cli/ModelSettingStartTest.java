package io.poimen.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.testsupport.ModelFolders;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import picocli.CommandLine;

/**
 * {@code java -jar poimen-memory.jar serve} with a model setting it cannot start with: the hub stops with exit code
 * 1 and one message that names the setting (the descriptor's file, line and key), and prints no stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class ModelSettingStartTest {

    @TempDir
    Path dir;

    @Test
    void aBadDescriptorStopsTheStartWithOneMessageNamingFileLineAndKey(CapturedOutput output) throws Exception {
        EmbeddingModelChoice minilm = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q;
        Path folder = ModelFolders.copyOf(minilm, dir.resolve("model"),
                ModelFolders.descriptorOf(minilm, "team-model", "max"));
        Run run = serve("--poimen.embedding.model=" + folder);
        assertThat(run.code).isEqualTo(1);
        assertOneMessageWithoutStackTrace(output.getAll() + run.err, "Description:\n\npoimen.embedding.model="
                + folder + ": " + folder.resolve("poimen-model.yaml") + ":2: key 'pooling': must be mean or cls, got "
                + "'max'");
    }

    @Test
    void aModelOfAnotherSizeThanTheVectorStoreStopsTheStartNamingBoth(CapturedOutput output) throws Exception {
        Run run = serve("--poimen.vector.dimensions=768");
        assertThat(run.code).isEqualTo(1);
        assertOneMessageWithoutStackTrace(output.getAll() + run.err, "poimen.embedding.model=all-minilm-l6-v2-q "
                + "makes 384-dimensional vectors but poimen.vector.dimensions is 768");
    }

    /** {@code output}: plain log lines, or JSON lines when an earlier test of this JVM switched the prod format on. */
    private static void assertOneMessageWithoutStackTrace(String output, String message) {
        assertThat(output).doesNotContainPattern("\"throwable\":\\s*\\{").doesNotContain("\\tat ");
        String all = output.replace("\\n", "\n").replace("\\/", "/");
        assertThat(all).contains("APPLICATION FAILED TO START").contains(message).contains("Action:");
        assertThat(all.split("APPLICATION FAILED TO START", -1)).as("reported once").hasSize(2);
        assertThat(all.lines().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by:")).toList())
                .as("no stack trace").isEmpty();
    }

    private record Run(int code, String err) {
    }

    private Run serve(String... more) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        List<String> args = new java.util.ArrayList<>(List.of("serve", "--server.port=0",
                "--server.address=127.0.0.1", "--poimen.data.dir=" + data,
                "--spring.datasource.url=jdbc:h2:mem:start-" + UUID.randomUUID()
                        + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
                "--poimen.vault.ingest-on-startup=false", "--camel.main.routes-reload-enabled=false"));
        args.addAll(List.of(more));
        CommandLine cli = PoimenCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args.toArray(String[]::new));
        return new Run(code, err.toString());
    }
}
