package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.ingest.IngestReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.camel.CamelContext;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.model.ModelCamelContext;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The live reload test and the recipes of docs/changing-flows.md: the hub runs with route reloading on over a
 * copy of routes/ and policies/, and each test applies one recipe's snippets to those files, exactly as written in
 * the doc, then checks the new behaviour without a restart. Each test puts the files back afterwards.
 */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-flow-recipes/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:flow-recipes;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false", "camel.main.routes-reload-enabled=true",
        // long, so that a query that waits for a branch's timeout stands out from one that does not
        "poimen.query.branch-timeout-ms=" + FlowRecipesLiveReloadTest.TIMEOUT_MS})
class FlowRecipesLiveReloadTest {
    static final long TIMEOUT_MS = 8000;
    static final Path DOC = Path.of("docs/changing-flows.md");
    static final Path DIR = tempCopy();
    static final Path QUERY = DIR.resolve("routes/query.camel.yaml");
    static final Path INGEST = DIR.resolve("routes/ingest.camel.yaml");
    static final Path PINNED_ROUTE = DIR.resolve("routes/branch-pinned.camel.yaml");
    static final Path POLICY = DIR.resolve("policies/retrieval.yaml");
    static final String PINNED_NOTE = "projects/poimen/runbooks/postgres-failover.md";
    static final String QUESTION = "how do I fix a pod in CrashLoopBackOff";
    static final AtomicLong PINNED_DELAY_MS = new AtomicLong();
    private static boolean ingested;
    private static int ingestSteps;

    @Autowired CamelContext camel;
    @Autowired ProducerTemplate producer;
    private final List<Path> originals = List.of(QUERY, INGEST, POLICY);
    private final List<String> saved = new ArrayList<>();

    @DynamicPropertySource
    static void dirs(DynamicPropertyRegistry registry) {
        registry.add("poimen.routes-dir", () -> DIR.resolve("routes").toString());
        registry.add("poimen.policies.dir", () -> DIR.resolve("policies").toString());
    }

    @BeforeEach
    void saveFilesAndIngestOnce() throws IOException {
        for (Path p : originals) {
            saved.add(Files.readString(p));
        }
        PINNED_DELAY_MS.set(0);
        if (!ingested) {
            producer.requestBody("direct:ingest", Path.of("examples/vault"), IngestReport.class);
            ingestSteps = ingestSteps();
            ingested = true;
        }
    }

    @AfterEach
    void putTheFilesBack() throws IOException {
        PINNED_DELAY_MS.set(0);
        for (int i = 0; i < originals.size(); i++) {
            write(originals.get(i), saved.get(i));
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> wiredNames().equals(List.of("tfidf", "semantic", "lexical"))
                        && ingestSteps() == ingestSteps && queryRouteStarted()
                        && camel.getRouteController().getRouteStatus("vault-ingest").isStarted());
    }

    @Test
    void dropABranch() throws Exception {
        assertThat(query(QUESTION).path("timings_ms").has("tfidf")).isTrue();

        edit(QUERY, recipe("drop-branch"), "");
        await().atMost(Duration.ofSeconds(60)).until(() -> !wiredNames().contains("tfidf") && queryRouteStarted());

        JsonNode r = query(QUESTION);
        // the multicast no longer waits for the dropped branch: it is neither timed, nor late, nor in a breakdown
        assertThat(r.path("strategy").asText()).isEqualTo("hybrid");
        assertThat(r.path("degraded")).isEmpty();
        assertThat(r.path("timings_ms").has("tfidf")).isFalse();
        assertThat(r.path("results").get(0).path("path").asText()).isEqualTo("projects/poimen/debugging/pod-crashes.md");
        r.path("results").forEach(x -> assertThat(x.path("breakdown").path("branches").has("tfidf")).isFalse());
    }

    @Test
    void addABranch() throws Exception {
        addPinnedBranch();

        JsonNode r = query(QUESTION);
        assertThat(r.path("degraded")).isEmpty();
        assertThat(r.path("timings_ms").has("pinned")).isTrue();
        // the default (adaptive) fusion scales the branch's bonus per query; the weighted fusion shows the policy's weight
        assertThat(r.path("results").get(0).path("breakdown").path("weights").path("pinned").asDouble()).isPositive();
        assertThat(query(QUESTION, ",\"fusion\":\"weighted\"").path("results").get(0).path("breakdown")
                .path("weights").path("pinned").asDouble()).isEqualTo(0.2);
        // a request weight for the new branch, like for the built-in ones, puts its note first
        JsonNode heavy = query(QUESTION, ",\"fusion\":\"weighted\",\"weights\":{\"pinned\":5}");
        assertThat(heavy.path("results").get(0).path("path").asText()).isEqualTo(PINNED_NOTE);
        assertThat(heavy.path("results").get(0).path("breakdown").path("branches").has("pinned")).isTrue();
        // the plan still decides: a lexical-only request leaves the added branch out, and does not wait for it
        JsonNode lexical = query(QUESTION, ",\"search_method\":\"lexical\"");
        assertThat(lexical.path("timings_ms").has("pinned")).isFalse();
        assertThat(lexical.path("degraded")).isEmpty();
    }

    @Test
    void changeTheFusion() throws Exception {
        assertThat(query(QUESTION).path("results").get(0).path("breakdown").path("fusion").asText())
                .isEqualTo("adaptive");
        edit(POLICY, "  method: adaptive\n", recipe("change-fusion"));
        JsonNode r = query(QUESTION);
        assertThat(r.path("results").get(0).path("breakdown").path("fusion").asText()).isEqualTo("rrf");
        assertThat(query(QUESTION, ",\"fusion\":\"weighted\"").path("results").get(0).path("breakdown")
                .path("fusion").asText()).isEqualTo("weighted");
    }

    @Test
    void addAStepToIngest() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger logger = (Logger) LoggerFactory.getLogger("poimen.flows.ingest");
        logger.addAppender(log);
        try {
            int before = ingestSteps();
            write(INGEST, Files.readString(INGEST) + recipe("ingest-step"));
            await().atMost(Duration.ofSeconds(60)).until(() -> ingestSteps() == before + 1
                    && camel.getRouteController().getRouteStatus("vault-ingest").isStarted());

            IngestReport report = producer.requestBody("direct:ingest", Path.of("examples/vault"), IngestReport.class);

            assertThat(report.notes()).isGreaterThan(20); // the caller still gets the report
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                    "ingest run: " + report.changed() + " notes changed, " + report.removed() + " removed, "
                            + report.chunks() + " chunks");
        } finally {
            logger.detachAppender(log);
        }
    }

    @Test
    void changeATimeout() throws Exception {
        addPinnedBranch();
        PINNED_DELAY_MS.set(3000);
        String line = "            timeout: \"{{poimen.query.branch-timeout-ms}}\"\n";
        edit(QUERY, line, recipe("change-timeout"));
        // no query in flight while the route reloads: one would fail when the old multicast's pool stops
        await().atMost(Duration.ofSeconds(60)).until(() -> "1000".equals(multicastTimeout()) && queryRouteStarted());

        JsonNode r = query(QUESTION);
        // the 3 s branch is late only under the new 1,000 ms timeout (the hub's own is TIMEOUT_MS, 8 s): the edit
        // applies; no wall-clock bound, which a loaded machine would break
        assertThat(r.path("degraded_reasons").path("pinned").asText()).isEqualTo(QueryFusion.LATE);
        assertThat(r.path("degraded_reasons").size()).isEqualTo(1);
        assertThat(r.path("results").size()).isPositive();
    }

    /** The three steps of "Add a branch"; the bean is {@link Recipes#pinnedNotesBranch}. */
    private void addPinnedBranch() throws Exception {
        write(PINNED_ROUTE, recipe("add-branch-route"));
        await().atMost(Duration.ofSeconds(60)).until(() -> camel.getRoute("branch-pinned") != null);
        String lexicalLine = "              - to: direct:branch-lexical\n";
        edit(QUERY, lexicalLine, lexicalLine + recipe("add-branch-multicast"));
        edit(POLICY, "  weights:\n", "  weights:\n" + recipe("add-branch-weight"));
        edit(POLICY, "  calibrated:\n", "  calibrated:\n" + recipe("add-branch-bonus"));
        await().atMost(Duration.ofSeconds(60)).until(() -> wiredNames().contains("pinned") && queryRouteStarted());
    }

    private String multicastTimeout() {
        var route = ((ModelCamelContext) camel).getRouteDefinition("memory-query");
        return route == null ? null : route.getOutputs().stream()
                .filter(o -> o instanceof org.apache.camel.model.MulticastDefinition)
                .map(o -> ((org.apache.camel.model.MulticastDefinition) o).getTimeout()).findFirst().orElse(null);
    }

    private boolean queryRouteStarted() {
        var status = camel.getRouteController().getRouteStatus("memory-query");
        return status != null && status.isStarted();
    }

    private List<String> wiredNames() {
        return new RouteBranches().wired(camel, "memory-query").stream().map(w -> w.branch().key()).toList();
    }

    private int ingestSteps() {
        var route = ((ModelCamelContext) camel).getRouteDefinition("vault-ingest");
        return route == null ? -1 : route.getOutputs().size();
    }

    private JsonNode query(String question) throws IOException {
        return query(question, "");
    }

    private JsonNode query(String question, String extra) throws IOException {
        String body = "{\"project\":\"poimen\",\"query\":\"" + question + "\"" + extra + "}";
        return new ObjectMapper().readTree(producer.requestBody("direct:query",
                body.getBytes(StandardCharsets.UTF_8), String.class));
    }

    /** The yaml block after {@code <!-- recipe: name -->} in docs/changing-flows.md. */
    static String recipe(String name) throws IOException {
        Matcher m = Pattern.compile("<!-- recipe: " + Pattern.quote(name) + " -->\\n```yaml\\n(.*?)```", Pattern.DOTALL)
                .matcher(Files.readString(DOC));
        assertThat(m.find()).as("recipe " + name + " in " + DOC).isTrue();
        return m.group(1);
    }

    static void edit(Path file, String what, String with) throws IOException {
        String text = Files.readString(file);
        assertThat(text).as(file + " holds the text the recipe changes").contains(what);
        write(file, text.replace(what, with));
    }

    static void write(Path file, String text) throws IOException {
        FileTime before = Files.exists(file) ? Files.getLastModifiedTime(file) : null;
        Files.writeString(file, text);
        if (Files.getLastModifiedTime(file).equals(before)) { // the policy watch compares modification times
            Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 1));
        }
    }

    static Path tempCopy() {
        try {
            Path dir = Files.createTempDirectory("poimen-flow-recipes");
            for (String sub : List.of("routes", "policies")) {
                Files.createDirectories(dir.resolve(sub));
                try (Stream<Path> files = Files.list(Path.of(sub))) {
                    for (Path f : files.toList()) {
                        Files.copy(f, dir.resolve(sub).resolve(f.getFileName().toString()));
                    }
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @TestConfiguration
    static class Recipes {
        /** The bean of docs/changing-flows.md "Add a branch", plus a delay the timeout recipe sets. */
        @Bean
        PinnedNotesBranch pinnedNotesBranch() {
            return new PinnedNotesBranch(List.of(PINNED_NOTE));
        }
    }

    public static class PinnedNotesBranch {
        private final List<String> paths;

        public PinnedNotesBranch(List<String> paths) {
            this.paths = paths;
        }

        public BranchResult search(@ExchangeProperty(PlannedQuery.PROPERTY) PlannedQuery q) throws InterruptedException {
            long t0 = System.nanoTime();
            Thread.sleep(PINNED_DELAY_MS.get());
            List<Hit> hits = new ArrayList<>();
            for (String p : paths) {
                if (q.scope().contains(p)) {
                    hits.add(new Hit(p + "#0", 1.0 / (hits.size() + 1)));
                }
            }
            return BranchResult.ok(Branch.ofKey("pinned"), hits, Trace.millisSince(t0));
        }
    }
}
