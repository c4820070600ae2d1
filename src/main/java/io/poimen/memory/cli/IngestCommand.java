package io.poimen.memory.cli;

import io.poimen.memory.Application;
import io.poimen.memory.index.ingest.IngestPipeline;
import io.poimen.memory.index.ingest.IngestProblem;
import io.poimen.memory.index.ingest.IngestReport;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.camel.ProducerTemplate;
import org.apache.lucene.store.LockObtainFailedException;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** Ingests a vault into the configured stores through the same route the hub uses, then exits. */
@Command(name = "ingest", description = "Ingest a vault folder (incremental) and print a summary.")
public class IngestCommand implements Callable<Integer> {
    /** H2's ErrorCode.DATABASE_ALREADY_OPEN_1. */
    private static final int H2_DATABASE_ALREADY_OPEN = 90020;

    @Option(names = "--vault", required = true, description = "Vault folder")
    Path vault;

    @Option(names = "--list-unresolved", description = "Print every unresolved link")
    boolean listUnresolved;

    @Option(names = "--fail-on-problems", description = "Exit with 3 when a file was skipped or only partly read")
    boolean failOnProblems;

    @Unmatched
    List<String> springArgs = new java.util.ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(vault)) {
            err.println("error: vault folder not found: " + vault);
            return 2;
        }
        try (ConfigurableApplicationContext ctx = start()) {
            if (ctx == null) {
                return 2;
            }
            ProgressBar bar = new ProgressBar(System.err); // the terminal's, redrawn in place
            IngestReport report = ctx.getBean(ProducerTemplate.class)
                    .requestBodyAndHeader("direct:ingest", vault, IngestPipeline.PROGRESS, bar, IngestReport.class);
            bar.finish();
            print(report, spec.commandLine().getOut());
            if (!report.problems().isEmpty()) {
                err.println("warning: " + report.problems().size() + " file(s) skipped or partly read, listed above "
                        + "as 'problem:'; everything else was ingested");
                return failOnProblems ? 3 : 0;
            }
            return 0;
        }
    }

    /**
     * The stores, or null (after one line on stderr saying what to do) when another process holds the data folder:
     * a running hub keeps its Lucene indexes and H2 file locked.
     */
    private ConfigurableApplicationContext start() {
        try {
            return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE).run(args());
        } catch (RuntimeException e) {
            String held = heldBy(e);
            if (held == null) {
                spec.commandLine().getErr().println("error: the stores did not start: " + rootCause(e));
                throw e;
            }
            spec.commandLine().getErr().println("error: the data folder is in use (" + held + "), probably by a running hub: stop it, "
                    + "or ingest into another folder with --poimen.data.dir=DIR, or let the running hub do it: "
                    + "curl -XPOST http://127.0.0.1:8080/memory/admin/reindex -H 'Content-Type: application/json' -d '{}'");
            return null;
        }
    }

    /** What holds the data folder, when that is why the stores did not open; else null. */
    static String heldBy(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof LockObtainFailedException) {
                return "Lucene index lock: " + t.getMessage();
            }
            if (t instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
                return "H2 database file open elsewhere";
            }
        }
        return null;
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /** Command-line arguments outrank application.yaml, default properties would not. */
    private String[] args() {
        List<String> args = new java.util.ArrayList<>(List.of("--poimen.vault.ingest-on-startup=false",
                "--camel.main.routes-reload-enabled=false", "--poimen.vault.path=" + vault.toAbsolutePath(),
                // a start that fails is reported by start() in one line, not as Spring's stack trace in the log
                "--logging.level.org.springframework.boot.SpringApplication=OFF",
                "--logging.level.org.springframework.context.annotation.AnnotationConfigApplicationContext=ERROR"));
        args.addAll(springArgs);
        return args.toArray(String[]::new);
    }

    private void print(IngestReport r, PrintWriter out) {
        out.printf("files: %d, notes: %d (changed %d, removed %d), chunks written: %d, links: %d, unresolved: %d,"
                        + " problems: %d, %.2f s (%.1f chunks/s)%n",
                r.files(), r.notes(), r.changed(), r.removed(), r.chunks(), r.links(), r.unresolvedLinks().size(),
                r.problems().size(), r.seconds(), r.chunksPerSecond());
        for (IngestProblem p : r.problems()) {
            out.println("problem: " + p.path() + ": " + p.reason());
        }
        List<String> unresolved = listUnresolved ? r.unresolvedLinks()
                : r.unresolvedLinks().stream().limit(20).toList();
        unresolved.forEach(u -> out.println("unresolved: " + u));
        if (unresolved.size() < r.unresolvedLinks().size()) {
            out.println("... " + (r.unresolvedLinks().size() - unresolved.size()) + " more (--list-unresolved)");
        }
    }
}
