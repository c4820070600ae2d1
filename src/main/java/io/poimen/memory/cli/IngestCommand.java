package io.poimen.memory.cli;

import io.poimen.memory.Application;
import io.poimen.memory.index.ingest.IngestPipeline;
import io.poimen.memory.index.ingest.IngestProblem;
import io.poimen.memory.index.ingest.IngestReport;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.camel.ProducerTemplate;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** Ingests a vault into the configured stores through the same route the hub uses, then exits. */
@Command(name = "ingest", description = "Ingest a vault folder (incremental) and print a summary.")
public class IngestCommand implements Callable<Integer> {
    @Option(names = "--vault", required = true, description = "Vault folder")
    Path vault;

    @Option(names = "--list-unresolved", description = "Print every unresolved link")
    boolean listUnresolved;

    @Option(names = "--fail-on-problems", description = "Exit with 3 when a file was skipped or only partly read")
    boolean failOnProblems;

    @Unmatched
    List<String> springArgs = new java.util.ArrayList<>();

    @Override
    public Integer call() {
        PrintStream err = System.err;
        if (!Files.isDirectory(vault)) {
            err.println("error: vault folder not found: " + vault);
            return 2;
        }
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .run(args())) {
            ProgressBar bar = new ProgressBar(err);
            IngestReport report = ctx.getBean(ProducerTemplate.class)
                    .requestBodyAndHeader("direct:ingest", vault, IngestPipeline.PROGRESS, bar, IngestReport.class);
            bar.finish();
            print(report, System.out);
            if (!report.problems().isEmpty()) {
                err.println("warning: " + report.problems().size() + " file(s) skipped or partly read, listed above "
                        + "as 'problem:'; everything else was ingested");
                return failOnProblems ? 3 : 0;
            }
            return 0;
        }
    }

    /** Command-line arguments outrank application.yaml, default properties would not. */
    private String[] args() {
        List<String> args = new java.util.ArrayList<>(List.of("--poimen.vault.ingest-on-startup=false",
                "--camel.main.routes-reload-enabled=false", "--poimen.vault.path=" + vault.toAbsolutePath()));
        args.addAll(springArgs);
        return args.toArray(String[]::new);
    }

    private void print(IngestReport r, PrintStream out) {
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
