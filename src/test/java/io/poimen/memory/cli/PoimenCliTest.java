package io.poimen.memory.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.ConfigurableBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.core.env.ConfigurableEnvironment;
import picocli.CommandLine;

/**
 * The command line as {@code PoimenCli.main} builds it, run in process. A Spring start is seen by a run hook, which
 * records the environment and abandons the run before any bean exists: no test here starts a server.
 */
class PoimenCliTest {

    /** Every command of the tree, e.g. {@code serve}, {@code bench beir}; the empty line is the top level. */
    static Stream<String> commands() {
        List<String> names = new ArrayList<>();
        collect(PoimenCli.commandLine(), "", names);
        return names.stream();
    }

    private static void collect(CommandLine cli, String prefix, List<String> names) {
        names.add(prefix.strip());
        cli.getSubcommands().forEach((name, sub) -> collect(sub, prefix + name + " ", names));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void helpPrintsUsageAndStartsNoSpring(String command) {
        for (String flag : List.of("--help", "-h")) {
            Run run = Run.of((command + " " + flag).strip().split(" "));
            assertEquals(0, run.code, run.err);
            assertTrue(run.out.startsWith("Usage: poimen-memory " + command), run.out);
            assertEquals(0, run.springStarts, "Spring was started by: " + command + " " + flag);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"serve --bogus", "serve --port 8080", "serve 8080", "--bogus", "serv"})
    void unknownOptionToServeIsAnErrorAndStartsNoSpring(String line) {
        Run run = Run.of(line.split(" "));
        assertEquals(CommandLine.ExitCode.USAGE, run.code, run.err);
        assertTrue(run.err.contains("Unknown option or argument: '" + line.split(" ")[line.startsWith("serve ") ? 1 : 0]
                + "'"), run.err);
        assertTrue(run.err.contains("--server.port=9090"), run.err);
        assertEquals(0, run.springStarts);
    }

    @Test
    void serveHandsSpringPropertiesToSpring() {
        for (String[] args : List.of(new String[] {"serve", "--server.port=18099", "--poimen.vault.path=/tmp/v x"},
                new String[] {"--server.port=18099", "--poimen.vault.path=/tmp/v x"})) {
            Run run = Run.of(args);
            assertEquals(1, run.springStarts, String.join(" ", args) + "\n" + run.err);
            assertEquals("18099", run.environment.getProperty("server.port"));
            assertEquals("/tmp/v x", run.environment.getProperty("poimen.vault.path"));
        }
    }

    /** The load runs' hub: serve's start with the fault hook, which needs its file; Spring properties pass through. */
    @Test
    void benchServeStartsTheHubWithSpringPropertiesAndNeedsItsFailureFile() {
        Run run = Run.of("bench", "serve", "--embedding-failure-file", "/tmp/fails", "--server.port=18099",
                "--spring.profiles.active=prod");
        assertEquals(1, run.springStarts, run.err);
        assertEquals("18099", run.environment.getProperty("server.port"));
        assertEquals("prod", run.environment.getProperty("spring.profiles.active"));

        Run missing = Run.of("bench", "serve", "--server.port=18099");
        assertEquals(CommandLine.ExitCode.USAGE, missing.code, missing.err);
        assertTrue(missing.err.contains("--embedding-failure-file"), missing.err);
        assertEquals(0, missing.springStarts);
    }

    @Test
    void ingestAndBenchStillTakeSpringProperties() {
        CommandLine cli = PoimenCli.commandLine();
        cli.parseArgs("ingest", "--vault", "v", "--spring.profiles.active=prod", "--poimen.lexical.backend=opensearch");
        IngestCommand ingest = (IngestCommand) cli.getSubcommands().get("ingest").getCommand();
        assertEquals(List.of("--spring.profiles.active=prod", "--poimen.lexical.backend=opensearch"), ingest.springArgs);

        // the bench commands live in their own package: read what they were given through picocli's parse result
        cli = PoimenCli.commandLine();
        CommandLine.ParseResult beir = cli.parseArgs("bench", "beir", "--dataset", "d",
                "--poimen.embedding.model=bge-small-en-v1.5-q").subcommand().subcommand();
        assertEquals(List.of("--poimen.embedding.model=bge-small-en-v1.5-q"), beir.unmatched());
        assertFalse(PoimenCli.serve(cli).serving());

        cli = PoimenCli.commandLine();
        beir = cli.parseArgs("bench", "beir", "--dataset", "a", "--dataset", "b",
                "--poimen.lexical.backend=opensearch").subcommand().subcommand();
        assertEquals(List.of(Path.of("a"), Path.of("b")), beir.matchedOptionValue("--dataset", List.of()));
        assertEquals(List.of("--poimen.lexical.backend=opensearch"), beir.unmatched());
    }

    @Test
    void benchLatencyRefusesAWarmUpThatIsNeitherAutoNorANumberBeforeSpringStarts(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("corpus.jsonl"), "");
        refusedBeforeSpring("--http-warm-up must be auto or a number of requests, got soon",
                "bench", "latency", "--dataset", dir.toString(), "--http-warm-up", "soon");
    }

    @Test
    void benchReplayRefusesABonusUnitThatIsNeitherAutoCosineNorSpread(@TempDir Path dir) {
        refusedBeforeSpring("--bonus-unit must be auto, cosine or spread, got percent",
                "bench", "replay", "--dump", dir.resolve("none.json").toString(), "--bonus-unit", "percent");
    }

    /** The command exits 2 with {@code message} on standard error (the bench commands print there), Spring not started. */
    private static void refusedBeforeSpring(String message, String... args) {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        Run run;
        try {
            run = Run.of(args);
        } finally {
            System.setErr(stderr);
        }
        String err = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(2, run.code, err);
        assertEquals(0, run.springStarts);
        assertTrue(err.contains(message), err);
    }

    private record Run(int code, String out, String err, int springStarts, ConfigurableEnvironment environment) {
        static Run of(String... args) {
            CommandLine cli = PoimenCli.commandLine();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            List<ConfigurableEnvironment> starts = new ArrayList<>();
            int code = SpringApplication.withHook(application -> new SpringApplicationRunListener() {
                @Override
                public void environmentPrepared(ConfigurableBootstrapContext bootstrap,
                                                ConfigurableEnvironment environment) {
                    starts.add(environment);
                    throw new SpringApplication.AbandonedRunException();
                }
            }, () -> cli.execute(args));
            return new Run(code, out.toString(), err.toString(), starts.size(), starts.isEmpty() ? null : starts.get(0));
        }
    }
}
