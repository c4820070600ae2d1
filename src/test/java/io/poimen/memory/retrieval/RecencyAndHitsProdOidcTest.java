package io.poimen.memory.retrieval;

import static io.poimen.memory.retrieval.RecencyHitsVault.ONLY_SECRET;
import static io.poimen.memory.retrieval.RecencyHitsVault.PLAIN;
import static io.poimen.memory.retrieval.RecencyHitsVault.SECRET;
import static io.poimen.memory.retrieval.RecencyHitsVault.TIE_HITS;
import static io.poimen.memory.retrieval.RecencyHitsVault.USED;
import static io.poimen.memory.retrieval.RecencyHitsVault.paths;
import static io.poimen.memory.retrieval.RecencyHitsVault.tfidf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.retrieval.select.HitCounts;
import io.poimen.memory.testsupport.TestIssuer;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link RecencyAndHitsRouteContract} on the production shape (PostgreSQL rows and chunk_hits, pgvector,
 * OpenSearch; oidc with a real issuer; queries over HTTP with bearer tokens), as charlie (platform-team: project
 * atlas, not its secret folder); and the hit factor's guarantee: another caller's selections of notes charlie may
 * not read change nothing of charlie's answers, and no answer carries a count.
 */
@ActiveProfiles("prod")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-recency-hits-prod/data-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false"})
class RecencyAndHitsProdOidcTest extends RecencyAndHitsRouteContract {
    static final Path DIR = FlowRecipesLiveReloadTest.tempCopy();
    static final Path VAULT = RecencyHitsVault.create(Path.of("target/it-recency-hits-prod/vault-" + UUID.randomUUID()));
    static final MockOAuth2Server ISSUER = TestIssuer.start();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    int port;
    @Autowired
    HitCounts hits;

    @DynamicPropertySource
    static void productionStack(DynamicPropertyRegistry registry) {
        String db = TestPostgres.freshDatabaseUrl("recency_hits");
        registry.add("spring.datasource.url", () -> db);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
        registry.add("poimen.opensearch.index", () -> "recency-hits-" + ProcessHandle.current().pid());
        registry.add("poimen.security.issuer-uri", () -> TestIssuer.issuerUrl(ISSUER));
        registry.add("poimen.vault.path", VAULT::toString);
        registry.add("poimen.policies.dir", () -> DIR.resolve("policies").toString());
    }

    @AfterAll
    static void stop() {
        ISSUER.shutdown();
    }

    private static String charlie() {
        return TestIssuer.token(ISSUER, "charlie", List.of("platform-team"), List.of("viewer"));
    }

    /** In both teams: may read the secret folder. */
    private static String erin() {
        return TestIssuer.token(ISSUER, "erin", List.of("platform-team", "ml-team"), List.of("viewer"));
    }

    @Override
    JsonNode ask(String body) throws Exception {
        return ask(charlie(), body);
    }

    private JsonNode ask(String token, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/memory/query")).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Override
    Path policyFile() {
        return DIR.resolve("policies/retrieval.yaml");
    }

    /**
     * Charlie's answer moves only by the counts of chunks charlie may read: between two of charlie's queries, erin
     * selects the secret note six times; the counts of charlie's chunks are untouched and charlie's scores change by
     * exactly what charlie's own first query added (one selection each), as the formula gives.
     */
    @Test
    void anotherCallersSelectionsOfNotesTheCallerMayNotReadChangeNothingOfItsAnswers() throws Exception {
        weights(0, 1);
        JsonNode first = ask(charlie(), tfidf(TIE_HITS));
        assertThat(paths(first)).contains(PLAIN, USED).doesNotContain(SECRET);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String path : List.of(PLAIN, USED)) {
            counts.put(path, hits.count(RecencyHitsVault.PROJECT, docId(first, path)));
        }

        JsonNode firstForErin = null;
        JsonNode lastForErin = null;
        for (int i = 0; i < 6; i++) {
            lastForErin = ask(erin(), tfidf(ONLY_SECRET));
            assertThat(paths(lastForErin)).containsExactly(SECRET);
            firstForErin = firstForErin == null ? lastForErin : firstForErin;
        }
        assertThat(raw(lastForErin, SECRET)).as("the counts act for a caller who may read the note")
                .isGreaterThan(raw(firstForErin, SECRET));

        JsonNode second = ask(charlie(), tfidf(TIE_HITS));
        assertThat(paths(second)).isEqualTo(paths(first));
        for (String path : List.of(PLAIN, USED)) {
            long n = counts.get(path);
            assertThat(hits.count(RecencyHitsVault.PROJECT, docId(first, path)))
                    .as("erin's selections left %s's count alone (charlie's second query added one)", path)
                    .isEqualTo(n + 1);
            double ownSelection = (1 + n / (n + 1.0)) / (1 + (n - 1) / (double) n);
            assertThat(raw(second, path) / raw(first, path)).as(path).isCloseTo(ownSelection, within(1e-9));
        }
        for (JsonNode answer : List.of(first, second)) {
            assertThat(answer.toString()).doesNotContain("s-secret").doesNotContain("moss")
                    .doesNotContain("\"hits\"").doesNotContain("hit_count");
        }
        weights(0, 0);
    }

    private static String docId(JsonNode answer, String path) {
        for (JsonNode r : answer.path("results")) {
            if (r.path("path").asText().equals(path)) {
                return r.path("doc_id").asText();
            }
        }
        throw new AssertionError(path + " not in " + answer);
    }
}
