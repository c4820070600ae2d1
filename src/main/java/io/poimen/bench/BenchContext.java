package io.poimen.bench;

import io.poimen.memory.Application;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.BeirVault;
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

        @Option(names = "--candidates-per-branch", description = "hits each branch returns (default: the policy's "
                + "candidates_per_branch, as a hub runs it; 100 to read Recall@100 of every branch)")
        Integer candidatesPerBranch;

        /** Set by the command from its own unmatched arguments (an {@code @Unmatched} in a mixin stays empty). */
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
        this(set, work, spring, work.resolve("vault"), BeirVault.write(set, work.resolve("vault")));
    }

    private BenchContext(BeirDataset set, Path work, ConfigurableApplicationContext spring, Path vault,
                         Map<String, String> idByPath) {
        this.set = set;
        this.work = work;
        this.spring = spring;
        this.vault = vault;
        this.idByPath = idByPath;
        this.producer = spring.getBean(ProducerTemplate.class);
    }

    /** A hub over an existing vault folder (ingested, not copied), for benchmarks with their own questions. */
    static BenchContext openVault(Path vault, Path policy, List<String> springArgs) throws IOException {
        return openVault(vault, policy, null, springArgs, bench -> { });
    }

    /**
     * As above, with work to do before the ingest ({@link #startFromEmptyStores}).
     *
     * @param candidates hits each branch returns, null: the policy's
     */
    static BenchContext openVault(Path vault, Path policy, Integer candidates, List<String> springArgs,
                                  BeforeIngest beforeIngest) throws IOException {
        if (!Files.isDirectory(vault)) {
            throw new IllegalArgumentException("vault folder not found: " + vault);
        }
        if (!Files.isRegularFile(policy)) {
            throw new IllegalArgumentException("retrieval policy not found: " + policy);
        }
        Path work = Files.createTempDirectory("poimen-bench-");
        ConfigurableApplicationContext spring = start(work, policy, springArgs, candidates, WebApplicationType.NONE);
        BenchContext bench = new BenchContext(null, work, spring, vault, Map.of());
        try {
            beforeIngest.run(bench);
            bench.ingest = bench.producer.requestBody("direct:ingest", vault, IngestReport.class);
        } catch (IOException | RuntimeException e) {
            bench.close();
            throw e;
        }
        return bench;
    }

    /**
     * A hub serving HTTP on a free loopback port (bench latency), with the policy as it is, on {@code vault}
     * when given, else on {@code set} written as a vault of at least {@code notes} notes; ingested.
     */
    static BenchContext serving(BeirDataset set, int notes, Path vault, Path policy, List<String> springArgs)
            throws IOException {
        if (!Files.isRegularFile(policy)) {
            throw new IllegalArgumentException("retrieval policy not found: " + policy
                    + " (run from the repository folder, or pass --policy FILE)");
        }
        Path work = Files.createTempDirectory("poimen-bench-");
        try {
            Path folder = vault != null ? vault : work.resolve("vault");
            Map<String, String> ids = vault != null ? Map.of() : BeirVault.write(set, folder, notes);
            List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
                    "--poimen.vault.path=" + folder));
            args.addAll(springArgs);
            ConfigurableApplicationContext spring = start(work, policy, args, null, WebApplicationType.SERVLET);
            BenchContext bench = new BenchContext(set, work, spring, folder, ids);
            try {
                bench.ingest = bench.producer.requestBody("direct:ingest", folder, IngestReport.class);
            } catch (RuntimeException e) {
                spring.close();
                throw e;
            }
            return bench;
        } catch (IOException | RuntimeException e) {
            FileSystemUtils.deleteRecursively(work);
            throw e;
        }
    }

    static BenchContext open(Options options) throws IOException {
        return open(options, 0, bench -> { });
    }

    /**
     * @param docs only the first {@code docs} documents of the corpus (0: all)
     * @throws IllegalArgumentException when the dataset folder has no corpus
     */
    static BenchContext open(Options options, int docs, BeforeIngest beforeIngest) throws IOException {
        if (!Files.isRegularFile(options.dataset.resolve("corpus.jsonl"))) {
            throw new IllegalArgumentException("no corpus.jsonl in " + options.dataset);
        }
        if (!Files.isRegularFile(options.policy)) {
            throw new IllegalArgumentException("retrieval policy not found: " + options.policy
                    + " (run from the repository folder, or pass --policy FILE)");
        }
        BeirDataset set = BeirDataset.load(options.dataset).firstDocuments(docs);
        Path work = Files.createTempDirectory("poimen-bench-");
        ConfigurableApplicationContext spring = start(work, options.policy, options.springArgs,
                options.candidatesPerBranch, WebApplicationType.NONE);
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

    /**
     * On the prod stores, which outlive the bench's hub, a set starts as on a new hub (bench beir, bench ingest):
     * {@link #removeVault()} takes whatever vault the stores held (an earlier set) out of every index, then the
     * OpenSearch index is made anew. Deleting is not enough there: OpenSearch counts a deleted chunk in its BM25
     * statistics (document count, document frequency, average length) until a merge drops it, minutes later, so
     * the next set would be ranked by the one before (measured: arcd's lexical top 10 equal to the embedded one on
     * 8 of 50 questions after three sets in one index, 50 of 50 from empty stores). The embedded stores are new
     * with each hub.
     */
    static void startFromEmptyStores(BenchContext bench) throws IOException {
        OpenSearchLexicalIndex openSearch = bench.spring.getBeanProvider(OpenSearchLexicalIndex.class).getIfAvailable();
        if (openSearch == null) {
            return;
        }
        bench.removeVault();
        openSearch.dropIndex();
        openSearch.ensureIndex();
    }

    /** Ingests an empty vault: every note the stores hold leaves every index. */
    void removeVault() throws IOException {
        Path empty = Files.createTempDirectory("poimen-bench-empty-");
        try {
            producer.requestBody("direct:ingest", empty, IngestReport.class);
        } finally {
            Files.delete(empty);
        }
    }

    /**
     * @param candidates hits each branch returns, in place of the policy's {@code candidates_per_branch}; null: the
     *                   policy's, so that the figures are those of a hub running it (the fusion's normalisation and
     *                   gate read whole lists, so the depth moves the hybrid, not only Recall@100)
     * @throws IllegalArgumentException when {@code candidates} is below 1
     */
    static ConfigurableApplicationContext start(Path work, Path policy, List<String> springArgs,
                                                Integer candidates, WebApplicationType web) throws IOException {
        Path policies = Files.createDirectories(work.resolve("policies"));
        String settings = Files.readString(policy);
        if (candidates != null) {
            if (candidates < 1) {
                throw new IllegalArgumentException("--candidates-per-branch must be at least 1, got " + candidates);
            }
            settings = settings.replaceAll("(?m)^candidates_per_branch:.*$", "candidates_per_branch: " + candidates);
        }
        Files.writeString(policies.resolve("retrieval.yaml"), settings);
        // command-line arguments, not default properties: application.yaml must not override these
        List<String> args = defaultArgs(work, policies, springArgs, System.getenv("SPRING_PROFILES_ACTIVE"));
        return new SpringApplicationBuilder(Application.class)
                .web(web)
                .run(args.toArray(String[]::new));
    }

    /**
     * The bench's settings, then {@code springArgs}. The in-memory H2 database is the embedded profile's only: on
     * the prod profile (on the command line or in {@code SPRING_PROFILES_ACTIVE}) the database comes from
     * {@code POIMEN_DB_URL} as for a hub, and a command-line argument overrides it as usual. A bench hub is on
     * loopback (the prod profile's 0.0.0.0 would refuse {@code poimen.security.mode=none} without it).
     */
    static List<String> defaultArgs(Path work, Path policies, List<String> springArgs, String profilesFromEnv) {
        List<String> args = new ArrayList<>(List.of("--server.address=127.0.0.1",
                "--poimen.vault.ingest-on-startup=false", "--camel.main.routes-reload-enabled=false",
                "--poimen.data.dir=" + work.resolve("data"), "--poimen.policies.dir=" + policies,
                "--poimen.query.branch-timeout-ms=30000", "--logging.level.root=WARN"));
        if (!prodProfile(springArgs, profilesFromEnv)) {
            // the hub's own H2 settings (application.yaml), in memory
            args.add("--spring.datasource.url=" + inMemoryDatabase(work) + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;"
                    + "DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        }
        // a key given twice would be joined with a comma: the command line's own value replaces the default
        args.removeIf(a -> springArgs.stream().anyMatch(s -> s.startsWith(a.substring(0, a.indexOf('=') + 1))));
        args.addAll(springArgs); // given last, so a profile or store URL on the command line wins
        return args;
    }

    /**
     * The in-memory H2 database of the bench hub working in {@code work}: one per hub, so that a second bench hub in
     * the same process (several sets in one command, or tests) does not find the notes of the one before it.
     */
    static String inMemoryDatabase(Path work) {
        return "jdbc:h2:mem:bench_" + work.getFileName().toString().replaceAll("[^A-Za-z0-9_]", "_");
    }

    private static boolean prodProfile(List<String> springArgs, String profilesFromEnv) {
        String profiles = springArgs.stream().filter(a -> a.startsWith("--spring.profiles.active="))
                .reduce((a, b) -> b).map(a -> a.substring(a.indexOf('=') + 1))
                .orElse(profilesFromEnv == null ? "" : profilesFromEnv);
        return java.util.Arrays.stream(profiles.split(",")).map(String::strip).anyMatch("prod"::equals);
    }

    @Override
    public void close() throws IOException {
        org.springframework.core.env.Environment env = spring.getEnvironment();
        boolean inMemory = env.getProperty("spring.datasource.url", "").startsWith(inMemoryDatabase() + ";");
        String user = env.getProperty("spring.datasource.username", "sa");
        String password = env.getProperty("spring.datasource.password", "");
        spring.close();
        if (inMemory) {
            dropInMemoryDatabase(user, password);
        }
        FileSystemUtils.deleteRecursively(work);
    }

    /** The embedded profile's in-memory database of this hub (the prod profile's database is elsewhere). */
    String inMemoryDatabase() {
        return inMemoryDatabase(work);
    }

    /** DB_CLOSE_DELAY=-1 keeps an in-memory database after its pool closes: shut it down, or it stays in the heap. */
    private void dropInMemoryDatabase(String user, String password) {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(inMemoryDatabase() + ";IFEXISTS=TRUE",
                user, password); java.sql.Statement shutdown = c.createStatement()) {
            shutdown.execute("SHUTDOWN");
        } catch (java.sql.SQLException e) {
            if (e.getErrorCode() != org.h2.api.ErrorCode.DATABASE_NOT_FOUND_WITH_IF_EXISTS_1) {
                throw new IllegalStateException("could not drop " + inMemoryDatabase(), e);
            }
            // already gone
        }
    }
}
