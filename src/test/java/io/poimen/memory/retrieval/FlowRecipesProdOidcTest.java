package io.poimen.memory.retrieval;

import static io.poimen.memory.retrieval.FlowRecipesLiveReloadTest.QUESTION;
import static io.poimen.memory.retrieval.FlowRecipesLiveReloadTest.edit;
import static io.poimen.memory.retrieval.FlowRecipesLiveReloadTest.recipe;
import static io.poimen.memory.retrieval.FlowRecipesLiveReloadTest.write;
import static io.poimen.memory.testsupport.OidcHubTestBase.PLANTED_PATH;
import static io.poimen.memory.testsupport.OidcHubTestBase.PLANTED_TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.ExampleVault;
import io.poimen.memory.testsupport.TestIssuer;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Two recipes of docs/changing-flows.md (drop a branch, change the fusion) on the production shape: the {@code prod}
 * profile (PostgreSQL + pgvector, OpenSearch, route reloading on as that profile ships it), oidc mode with a real
 * issuer, queries over HTTP with bearer tokens. The edited flow must keep the access policy: a caller outside
 * ml-team never sees the planted ml-team note, before or after the reload.
 */
@ActiveProfiles("prod")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-flow-prod/data-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "poimen.query.branch-timeout-ms=" + FlowRecipesProdOidcTest.TIMEOUT_MS})
class FlowRecipesProdOidcTest {
    static final long TIMEOUT_MS = 8000;
    static final Path DIR = FlowRecipesLiveReloadTest.tempCopy();
    static final Path QUERY = DIR.resolve("routes/query.camel.yaml");
    static final Path POLICY = DIR.resolve("policies/retrieval.yaml");
    static final Path VAULT = Path.of("target/it-flow-prod/vault-" + UUID.randomUUID());
    static final MockOAuth2Server ISSUER = TestIssuer.start();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort int port;
    @Autowired CamelContext camel;

    @DynamicPropertySource
    static void productionStack(DynamicPropertyRegistry registry) throws Exception {
        String db = TestPostgres.freshDatabaseUrl("flow_prod");
        ExampleVault.copyTo(VAULT);
        Files.writeString(VAULT.resolve(PLANTED_PATH), "# Planted secret\n\n## Planted\n\nThe pod CrashLoopBackOff "
                + "secret is " + PLANTED_TEXT + " for crashing pods.\n");
        registry.add("spring.datasource.url", () -> db);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
        registry.add("poimen.opensearch.index", () -> "flow-prod-" + ProcessHandle.current().pid());
        registry.add("poimen.security.issuer-uri", () -> TestIssuer.issuerUrl(ISSUER));
        registry.add("poimen.vault.path", VAULT::toString);
        registry.add("poimen.routes-dir", () -> DIR.resolve("routes").toString());
        registry.add("poimen.policies.dir", () -> DIR.resolve("policies").toString());
    }

    @AfterAll
    static void stop() {
        ISSUER.shutdown();
    }

    @Test
    void dropABranchAndChangeTheFusionWhileTheProductionHubRuns() throws Exception {
        String original = Files.readString(QUERY);
        String originalPolicy = Files.readString(POLICY);
        String charlie = TestIssuer.token(ISSUER, "charlie", List.of("platform-team"), List.of("viewer"));
        String bob = TestIssuer.token(ISSUER, "bob", List.of("ml-team"), List.of("editor"));
        JsonNode before = query(charlie, "poimen");
        assertThat(before.path("timings_ms").has("tfidf")).isTrue();
        assertThat(before.path("timings_ms").has("lexical")).as("OpenSearch's branch ran").isTrue();
        assertThat(before.path("degraded")).isEmpty();

        edit(QUERY, recipe("drop-branch"), "");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> wired().equals(
                List.of("semantic", "lexical")) && routeStarted());

        long t0 = System.nanoTime();
        JsonNode dropped = query(charlie, "poimen");
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(dropped.path("degraded")).isEmpty();
        assertThat(dropped.path("timings_ms").has("tfidf")).isFalse();
        assertThat(dropped.path("timings_ms").has("lexical")).isTrue();
        assertThat(tookMs).as("no wait for the dropped branch").isLessThan(TIMEOUT_MS / 2);
        assertThat(dropped.path("results").get(0).path("path").asText())
                .isEqualTo("projects/poimen/debugging/pod-crashes.md");
        dropped.path("results").forEach(r -> assertThat(r.path("breakdown").path("branches").has("tfidf")).isFalse());

        // the reloaded route still filters: the planted ml-team note is found by ml-team only
        String planted = "crashing pods secret " + PLANTED_TEXT;
        assertThat(paths(JSON.readTree(send(bob, "ml-training", planted).body()))).contains(PLANTED_PATH);
        HttpResponse<String> outsider = send(charlie, "ml-training", planted);
        // charlie is not in ml-team: the project is denied before any search
        assertThat(outsider.statusCode()).as(outsider.body()).isEqualTo(403);
        assertThat(outsider.body()).doesNotContain(PLANTED_PATH).doesNotContain(PLANTED_TEXT);

        edit(POLICY, "  method: adaptive\n", recipe("change-fusion"));
        assertThat(query(charlie, "poimen").path("results").get(0).path("breakdown").path("fusion").asText())
                .isEqualTo("rrf");

        // the bonus unit: in cosine units the lexical bonus is the policy's 0.10; in spread units it is 0.10 times
        // this query's semantic spread (reason: "lexical W (bonus B, ...), semantic W (cosine spread S, ...)")
        double[] cosine = bonusAndSpread(before);
        assertThat(cosine[0]).isEqualTo(0.10);
        assertThat(cosine[1]).isBetween(0.1, 0.9); // a tenth of it then differs from 0.10 by more than the rounding
        assertThat(originalPolicy).contains("    bonus_unit: auto\n");
        write(POLICY, originalPolicy.replace("    bonus_unit: auto\n", "    bonus_unit: spread  # recipe\n"));
        double[] spread = bonusAndSpread(query(charlie, "poimen"));
        assertThat(spread[1]).isCloseTo(cosine[1], within(0.006)); // the same lists, so the same spread
        assertThat(spread[0]).isCloseTo(0.10 * spread[1], within(0.0056));

        write(QUERY, original);
        write(POLICY, originalPolicy);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> wired().equals(
                List.of("tfidf", "semantic", "lexical")) && routeStarted());
        JsonNode restored = query(charlie, "poimen");
        assertThat(restored.path("timings_ms").has("tfidf")).isTrue();
        assertThat(restored.path("results").get(0).path("breakdown").path("fusion").asText()).isEqualTo("adaptive");
    }

    /** The lexical bonus and the semantic spread the top result's adaptive reason names, to two decimals. */
    private static double[] bonusAndSpread(JsonNode answer) {
        JsonNode top = answer.path("results").get(0).path("breakdown");
        assertThat(top.path("fusion").asText()).isEqualTo("adaptive");
        String reason = top.path("reason").asText();
        var bonus = java.util.regex.Pattern.compile("lexical [0-9.]+ \\(bonus ([0-9.]+)").matcher(reason);
        var spread = java.util.regex.Pattern.compile("semantic [0-9.]+ \\(cosine spread ([0-9.]+)").matcher(reason);
        assertThat(bonus.find() && spread.find()).as(reason).isTrue();
        return new double[] {Double.parseDouble(bonus.group(1)), Double.parseDouble(spread.group(1))};
    }

    private List<String> wired() {
        return new RouteBranches().wired(camel, "memory-query").stream().map(w -> w.branch().key()).toList();
    }

    private boolean routeStarted() {
        var status = camel.getRouteController().getRouteStatus("memory-query");
        return status != null && status.isStarted();
    }

    private JsonNode query(String token, String project) throws Exception {
        HttpResponse<String> r = send(token, project, QUESTION);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> send(String token, String project, String text) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(java.util.Map.of(
                        "project", project, "query", text)))).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> paths(JsonNode answer) {
        return answer.path("results").findValuesAsText("path");
    }
}
