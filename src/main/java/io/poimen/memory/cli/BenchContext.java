package io.poimen.memory.cli;

import io.poimen.memory.Application;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.retrieval.eval.BeirDataset;
import io.poimen.memory.retrieval.eval.BeirVault;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.camel.ProducerTemplate;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * A hub without HTTP for benchmarks, with a BEIR corpus written as its vault and ingested: its own fresh data
 * folder and in-memory H2 (unless a profile such as prod picks the stores), and a copy of the retrieval policy
 * with 100 candidates per branch so that Recall@100 can be measured. Closing it deletes the work folder.
 */
final class BenchContext implements AutoCloseable {

    /** The options every bench command takes (a picocli mixin). */
    static final class Options {
        @Option(names = "--dataset", required = true,
                description = "BEIR folder with corpus.jsonl, queries.jsonl, qrels/test.tsv")
        Path dataset;

        @Option(names = "--policy", defaultValue = "policies/retrieval.yaml", description = "retrieval policy to use")
        Path policy;

        @Unmatched
        List<String> springArgs = new ArrayList<>();
    }

    final BeirDataset set;
    final Path vault;
    final Map<String, String> idByPath;
    final ConfigurableApplicationContext spring;
    final ProducerTemplate producer;
    IngestReport ingest;
    private final Path work;

    /** Work to do on the written vault before the first ingest (e.g. a baseline measurement). */
    @FunctionalInterface
    interface BeforeIngest {
        void run(BenchContext bench) throws IOException;
    }

    private BenchContext(BeirDataset set, Path work, ConfigurableApplicationContext spring) throws IOException {
        this.set = set;
        this.work = work;
        this.spring = spring;
        this.vault = work.resolve("vault");
        this.idByPath = BeirVault.write(set, vault);
        this.producer = spring.getBean(ProducerTemplate.class);
    }

    static BenchContext open(Options options) throws IOException {
        return open(options, bench -> { });
    }

    /** @throws IllegalArgumentException when the dataset folder has no corpus */
    static BenchContext open(Options options, BeforeIngest beforeIngest) throws IOException {
        if (!Files.isRegularFile(options.dataset.resolve("corpus.jsonl"))) {
            throw new IllegalArgumentException("no corpus.jsonl in " + options.dataset);
        }
        if (!Files.isRegularFile(options.policy)) {
            throw new IllegalArgumentException("retrieval policy not found: " + options.policy
                    + " (run from the repository folder, or pass --policy FILE)");
        }
        BeirDataset set = BeirDataset.load(options.dataset);
        Path work = Files.createTempDirectory("poimen-bench-");
        ConfigurableApplicationContext spring = start(work, options.policy, options.springArgs);
        try {
            BenchContext bench = new BenchContext(set, work, spring);
            beforeIngest.run(bench);
            bench.ingest = bench.producer.requestBody("direct:ingest", bench.vault, IngestReport.class);
            return bench;
        } catch (IOException | RuntimeException e) {
            spring.close();
            FileSystemUtils.deleteRecursively(work);
            throw e;
        }
    }

    private static ConfigurableApplicationContext start(Path work, Path policy, List<String> springArgs)
            throws IOException {
        Path policies = Files.createDirectories(work.resolve("policies"));
        String settings = Files.readString(policy)
                .replaceAll("(?m)^candidates_per_branch:.*$", "candidates_per_branch: 100");
        Files.writeString(policies.resolve("retrieval.yaml"), settings);
        // command-line arguments, not default properties: application.yaml must not override these
        List<String> args = new ArrayList<>(List.of("--poimen.vault.ingest-on-startup=false",
                "--camel.main.routes-reload-enabled=false", "--poimen.data.dir=" + work.resolve("data"),
                "--poimen.policies.dir=" + policies,
                "--poimen.query.branch-timeout-ms=30000", "--logging.level.root=WARN"));
        // a repeated argument is joined with commas, not overridden: the in-memory default only when none is given
        if (springArgs.stream().noneMatch(a -> a.startsWith("--spring.datasource.url="))) {
            args.add("--spring.datasource.url=jdbc:h2:mem:bench;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        }
        args.addAll(springArgs); // given last, so a profile or store URL on the command line wins
        return new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }

    @Override
    public void close() throws IOException {
        spring.close();
        FileSystemUtils.deleteRecursively(work);
    }
}
