package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import io.poimen.memory.testsupport.AgentStreamClient;
import io.poimen.memory.testsupport.ExampleVault;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * The project event feed over HTTP in oidc mode with six users and private material below the project's top
 * (security issue, items 4 and 5): the example vault plus a secops-only folder inside project poimen whose note
 * is the only way to a shared note, and a secops-only shared folder. A secops user's {@code memory_retrieved}
 * events reach, in the log and on the stream, only the viewers who could have seen all of them (every result
 * readable and in their own search scope), whole; the others get no trace of them. An open stream ends when its
 * token expires, and a policy edit applies to the very next event of an open stream. "Did not arrive" is always
 * shown with a later marker event that did.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.security.clock-skew=PT1S",
        "poimen.data.dir=target/it-feed/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:feed-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S",
        "poimen.agents.replay-max-events=3"})
class AgentFeedPrivacyHttpTest {
    static final String ISSUER = "poimen-feed";
    static final Path VAULT = Path.of("target/it-feed/vault");
    static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final String BREAK_GLASS = "projects/poimen/secops/break-glass.md";
    static final String ROTATION = "shared/concepts/root-rotation.md";
    static final String ESCALATION = "shared/secops/escalation.md";
    static final String POIMEN_POLICY = "projects/poimen/_access.yaml";

    @LocalServerPort int port;

    static boolean issuerStarted;

    @DynamicPropertySource
    static synchronized void issuerAndVault(DynamicPropertyRegistry registry) throws IOException {
        if (!issuerStarted) { // one issuer for this class and its prod-store subclass (stopped with the JVM)
            OAUTH.start();
            issuerStarted = true;
        }
        FileSystemUtils.deleteRecursively(VAULT);
        ExampleVault.copyTo(VAULT);
        Path secops = Files.createDirectories(VAULT.resolve("projects/poimen/secops"));
        Files.writeString(secops.resolve("_access.yaml"), "access_level: private\nowner_group: secops\n");
        Files.writeString(VAULT.resolve(BREAK_GLASS), "# Break glass\n\nThe break glass root credential of the "
                + "cluster: open the sealed envelope, log the break glass use, then follow [[shared/concepts/"
                + "root-rotation]] and [[shared/secops/escalation]].\n");
        Files.writeString(VAULT.resolve(ROTATION), "# Root rotation\n\nThe quarterly zephyrine rotation schedule "
                + "of every root credential after a break glass use.\n");
        Path sharedSecops = Files.createDirectories(VAULT.resolve("shared/secops"));
        Files.writeString(sharedSecops.resolve("_access.yaml"), "access_level: group\nallowed_groups: [secops]\n");
        Files.writeString(VAULT.resolve(ESCALATION), "# Escalation\n\nWho is paged when the break glass root "
                + "credential is used.\n");
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        registry.add("poimen.vault.path", () -> VAULT.toString());
    }

    static String token(String sub, List<String> groups, long seconds) {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, sub,
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", groups,
                "roles", List.of("viewer")), seconds)).serialize();
    }

    /** secops: poimen, its secops folder and shared/secops. */
    static String sam() {
        return token("sam", List.of("platform-team", "secops"), 3600);
    }

    /** sam's colleague: the same access. */
    static String sara() {
        return token("sara", List.of("platform-team", "secops"), 3600);
    }

    /** poimen, not its secops folder. */
    static String charlie() {
        return token("charlie", List.of("platform-team", "devops-team"), 3600);
    }

    /** poimen through devops-team only. */
    static String dave() {
        return token("dave", List.of("devops-team"), 3600);
    }

    /** ml-training, not poimen. */
    static String bob() {
        return token("bob", List.of("ml-team"), 3600);
    }

    /** signed in, no groups. */
    static String nobody() {
        return token("nobody", List.of(), 3600);
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    HttpResponse<String> get(String token, String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(pathAndQuery)).header("Authorization", "Bearer " + token)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String token, String path, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    AgentStreamClient stream(String token) throws Exception {
        return new AgentStreamClient(HTTP, uri("/memory/agents/stream"), token);
    }

    /** Posts an event of {@code token}'s caller carrying {@code marker}; in poimen unless {@code project} is null. */
    JsonNode mark(String token, String project, String marker) throws Exception {
        String payload = project == null ? "{\"reasoning\":\"" + marker + "\"}"
                : "{\"project\":\"" + project + "\",\"reasoning\":\"" + marker + "\"}";
        HttpResponse<String> r = post(token, "/memory/agents/events",
                "{\"agent_id\":\"marker\",\"type\":\"agent_decision\",\"payload\":" + payload + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return JSON.readTree(r.body());
    }

    JsonNode logOf(String token, String agentId) throws Exception {
        HttpResponse<String> r = get(token, "/memory/agents/logs?limit=1000&agent_id=" + agentId);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body()).path("events");
    }

    @Test
    void aPrivilegedQueryReachesOnlyViewersWhoCouldHaveSeenAllOfItAndLeavesNoTraceWithTheOthers() throws Exception {
        String agent = "secops-" + UUID.randomUUID().toString().substring(0, 8);
        String marker = "marker-" + UUID.randomUUID();
        try (AgentStreamClient samStream = stream(sam()); AgentStreamClient saraStream = stream(sara());
             AgentStreamClient charlieStream = stream(charlie()); AgentStreamClient daveStream = stream(dave());
             AgentStreamClient bobStream = stream(bob()); AgentStreamClient nobodyStream = stream(nobody())) {
            // 1. the secops note is the best hit; the rest of the answer is what charlie and dave may read
            HttpResponse<String> glass = post(sam(), "/memory/query", """
                    {"project":"poimen","query":"break glass root credential","agent_id":"%s",
                     "session_id":"sam-run"}""".formatted(agent));
            assertThat(glass.statusCode()).as(glass.body()).isEqualTo(200);
            JsonNode glassResults = JSON.readTree(glass.body()).path("results");
            assertThat(glassResults.get(0).path("path").asText()).isEqualTo(BREAK_GLASS);
            // 2. a single result that charlie and dave may read, in their scope only through the secops note
            HttpResponse<String> rotation = post(sam(), "/memory/query", """
                    {"project":"poimen","query":"quarterly zephyrine rotation schedule","top_k":1,
                     "agent_id":"%s","session_id":"sam-run"}""".formatted(agent));
            assertThat(rotation.statusCode()).as(rotation.body()).isEqualTo(200);
            assertThat(JSON.readTree(rotation.body()).path("results").findValuesAsText("path"))
                    .containsExactly(ROTATION);
            assertThat(get(dave(), "/memory/vault/file?path=" + ROTATION).statusCode()).isEqualTo(200);
            // 3. markers after them: in poimen for its readers, their own for the others
            mark(charlie(), "poimen", marker);
            mark(bob(), null, marker);
            mark(nobody(), null, marker);
            for (AgentStreamClient s : List.of(samStream, saraStream, charlieStream, daveStream, bobStream,
                    nobodyStream)) {
                s.awaitText(marker);
            }

            // the colleague who may read all of it sees both events whole (the best hit and its score first),
            // without sam's session
            List<JsonNode> saraSees = saraStream.events().stream()
                    .filter(e -> e.path("agent_id").asText().equals("sam/" + agent)).toList();
            assertThat(saraSees).hasSize(2);
            assertThat(saraSees.get(0).path("payload").path("query").asText()).isEqualTo("break glass root credential");
            assertThat(saraSees.get(0).path("payload").path("chunks").get(0).path("path").asText())
                    .isEqualTo(BREAK_GLASS);
            assertThat(saraSees.get(0).path("payload").path("scores").get(0).asDouble())
                    .isEqualTo(glassResults.get(0).path("score").asDouble());
            assertThat(saraSees).allSatisfy(e -> assertThat(e.has("session_id")).isFalse());
            // sam sees his own, with the session
            assertThat(samStream.events().stream().filter(e -> e.path("agent_id").asText().equals("sam/" + agent))
                    .map(e -> e.path("session_id").asText()).toList()).containsExactly("sam-run", "sam-run");
            // everyone else: the marker, and nothing of sam's queries
            for (AgentStreamClient s : List.of(charlieStream, daveStream, bobStream, nobodyStream)) {
                assertThat(s.text()).doesNotContain("sam/", "break glass", "zephyrine", "root credential",
                        "secops", ROTATION, "sam-run", "[path hidden]");
            }
            // the same in the log, and not in its counts either
            assertThat(logOf(sara(), "sam/" + agent)).hasSize(2);
            for (String viewer : List.of(charlie(), dave(), bob(), nobody())) {
                assertThat(logOf(viewer, "sam/" + agent)).isEmpty();
                HttpResponse<String> all = get(viewer, "/memory/agents/logs?limit=1000");
                assertThat(all.body()).contains(marker).doesNotContain("sam/", "break glass", "zephyrine",
                        "sam-run");
            }
        }
    }

    /**
     * Issue 27 item 3: every event carries its id as the SSE {@code id}; a stream reopened with
     * {@code Last-Event-ID} first gets what its viewer missed and may see (at most
     * {@code poimen.agents.replay-max-events}, here 3: the newest), then the live events, each once, in id order.
     */
    @Test
    void aStreamResumedWithLastEventIdGetsWhatItMissedOnceAndInOrder() throws Exception {
        String run = UUID.randomUUID().toString();
        long seen;
        try (AgentStreamClient first = stream(dave())) {
            long a = mark(charlie(), "poimen", "a-" + run).path("id").asLong();
            first.awaitText("a-" + run);
            assertThat(first.ids()).contains(a);
            seen = first.ids().get(first.ids().size() - 1);
        }
        // while dave is away: four events he may see (the oldest beyond the bound of 3) and one hidden from him
        mark(charlie(), "poimen", "b-" + run);
        long hidden = mark(bob(), "ml-training", "h-" + run).path("id").asLong();
        long c = mark(charlie(), "poimen", "c-" + run).path("id").asLong();
        long d = mark(charlie(), "poimen", "d-" + run).path("id").asLong();
        try (AgentStreamClient resumed = new AgentStreamClient(HTTP, uri("/memory/agents/stream"), dave(),
                Long.toString(seen))) {
            long e = mark(charlie(), "poimen", "e-" + run).path("id").asLong();
            resumed.awaitText("e-" + run);
            assertThat(resumed.ids()).as(resumed.text()).containsExactly(c, d, e);
            assertThat(resumed.text()).doesNotContain("a-" + run, "b-" + run, "h-" + run);
            assertThat(hidden).isBetween(seen, c);
        }

        HttpResponse<String> bad = HTTP.send(HttpRequest.newBuilder(uri("/memory/agents/stream"))
                .header("Authorization", "Bearer " + dave()).header("Accept", "text/event-stream")
                .header("Last-Event-ID", "yesterday").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).path("error").asText()).isEqualTo("bad_request");
    }

    @Test
    void anOpenStreamEndsWhenItsTokenExpiresAndAFreshTokenReconnects() throws Exception {
        // short, but long enough to open the stream on a loaded machine
        String shortLived = token("dave", List.of("devops-team"), 15);
        String after = "after-" + UUID.randomUUID();
        try (AgentStreamClient expiring = stream(shortLived)) {
            // the stream ends on its own once the token is no longer accepted (15 s plus the 1 s clock skew)
            await().atMost(Duration.ofSeconds(60)).until(expiring::ended);
            assertThat(expiring.text()).contains("token expired");
            assertThat(get(shortLived, "/memory/agents/logs?limit=1").statusCode()).isEqualTo(401);
            HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(uri("/memory/agents/stream"))
                    .header("Authorization", "Bearer " + shortLived).header("Accept", "text/event-stream").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(401);
            // the client reconnects with a fresh token and gets the next event
            try (AgentStreamClient renewed = stream(dave())) {
                mark(charlie(), "poimen", after);
                renewed.awaitText(after);
            }
            assertThat(expiring.text()).doesNotContain(after);
        }
    }

    @Test
    void aPolicyEditAppliesToTheNextEventOfAnOpenStream() throws Exception {
        Path policy = VAULT.resolve(POIMEN_POLICY);
        String original = Files.readString(policy);
        String allowed = "allowed-" + UUID.randomUUID();
        String denied = "denied-" + UUID.randomUUID();
        String own = "own-" + UUID.randomUUID();
        try (AgentStreamClient daveStream = stream(dave())) {
            mark(charlie(), "poimen", allowed);
            daveStream.awaitText(allowed);
            // the policy now leaves devops-team out of poimen: REST refuses dave at once
            Files.writeString(policy, original.replace("  - devops-team\n", ""));
            assertThat(Files.readString(policy)).doesNotContain("devops-team");
            assertThat(get(dave(), "/memory/vault?project=poimen").statusCode()).isEqualTo(403);
            // and the open stream does not deliver poimen's next event; dave's own event after it arrives
            mark(charlie(), "poimen", denied);
            mark(dave(), null, own);
            daveStream.awaitText(own);
            assertThat(daveStream.text()).contains(allowed).doesNotContain(denied);
        } finally {
            Files.writeString(policy, original);
        }
        assertThat(get(dave(), "/memory/vault?project=poimen").statusCode()).isEqualTo(200);
    }
}
