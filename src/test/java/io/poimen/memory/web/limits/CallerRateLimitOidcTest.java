package io.poimen.memory.web.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * Limits per caller over HTTP with OIDC on: a caller over its limit gets 429 JSON with {@code Retry-After} while
 * other callers' requests all succeed; the subject and the token's client id name the caller; the query, MCP and
 * write surfaces each count on their own. The hub is one of two replicas ({@code poimen.limits.replicas=2}), so it
 * allows half of each configured limit. Each test uses subjects of its own (the buckets live as long as the context).
 */
@TestPropertySource(properties = {"poimen.limits.query-per-minute=12", "poimen.limits.mcp-per-minute=8",
        "poimen.limits.writes-per-minute=6", "poimen.limits.replicas=2"})
class CallerRateLimitOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String QUERY = """
            {"project":"poimen","query":"how do I restart a pod in CrashLoopBackOff"}""";

    static String token(String sub, String clientId) {
        return OAUTH.issueToken(ISSUER, clientId, new DefaultOAuth2TokenCallback(ISSUER, sub,
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", List.of("platform-team"),
                "roles", List.of("editor"), "azp", clientId), 3600)).serialize();
    }

    /** Statuses of requests sent until the first 429 (or {@code max}); the 429 is the last. */
    List<HttpResponse<String>> untilLimited(int max, HttpRequestFactory request) throws Exception {
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            HttpResponse<String> a = HTTP.send(request.next(), HttpResponse.BodyHandlers.ofString());
            answers.add(a);
            if (a.statusCode() == 429) {
                break;
            }
        }
        return answers;
    }

    interface HttpRequestFactory {
        HttpRequest next();
    }

    HttpRequest query(String token) {
        return HttpRequest.newBuilder(uri("/memory/query")).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(QUERY)).build();
    }

    /**
     * The requests answered before the 429: at least this replica's share of the limit, and at most that plus the
     * tokens refilled while they were sent ({@code share} a minute).
     */
    static void assertLimitedAfterItsShare(List<HttpResponse<String>> answers, int share, long startedNanos,
                                           int expectedOk) throws Exception {
        double minutes = (System.nanoTime() - startedNanos) / 60e9;
        HttpResponse<String> last = answers.get(answers.size() - 1);
        assertThat(last.statusCode()).as("limited at last: " + answers.size() + " requests").isEqualTo(429);
        List<HttpResponse<String>> before = answers.subList(0, answers.size() - 1);
        assertThat(before).allSatisfy(a -> assertThat(a.statusCode()).as(a.body()).isEqualTo(expectedOk));
        assertThat(before.size()).isBetween(share, share + (int) Math.floor(minutes * share));
        assertThat(last.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        JsonNode body = JSON.readTree(last.body());
        assertThat(body.path("error").asText()).isEqualTo("rate_limited");
        assertThat(body.path("message").asText()).contains("requests per minute");
        long retryAfter = Long.parseLong(last.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).as("seconds to the next token: 60 / share at most").isBetween(1L, 60L / share);
    }

    @Test
    void aCallerOverItsQueryLimitGets429WhileAnotherCallersQueriesAllSucceed() throws Exception {
        String greedy = token("limit-greedy", "poimen-cli");
        String other = token("limit-other", "poimen-cli");
        long t0 = System.nanoTime();
        List<HttpResponse<String>> answers = untilLimited(40, () -> query(greedy));
        // 12 a minute over 2 replicas: 6 here
        assertLimitedAfterItsShare(answers, 6, t0, 200);

        for (int i = 0; i < 6; i++) {
            HttpResponse<String> a = HTTP.send(query(other), HttpResponse.BodyHandlers.ofString());
            assertThat(a.statusCode()).as("another caller's query %d: %s", i + 1, a.body()).isEqualTo(200);
        }
        // the greedy caller's other surfaces are not its query surface
        HttpResponse<String> vault = get(greedy, "/memory/vault?project=poimen");
        assertThat(vault.statusCode()).isEqualTo(200);
    }

    @Test
    void theSameSubjectThroughAnotherClientIsAnotherCaller() throws Exception {
        String cli = token("limit-dual", "poimen-cli");
        long t0 = System.nanoTime();
        assertLimitedAfterItsShare(untilLimited(40, () -> query(cli)), 6, t0, 200);

        String agent = token("limit-dual", "build-agent");
        HttpResponse<String> a = HTTP.send(query(agent), HttpResponse.BodyHandlers.ofString());
        assertThat(a.statusCode()).as("the subject's agent client has a bucket of its own: " + a.body())
                .isEqualTo(200);
    }

    @Test
    void writesAndMcpCountOnTheirOwnSurfaces() throws Exception {
        String writer = token("limit-writer", "poimen-cli");
        long t0 = System.nanoTime();
        // 6 writes a minute over 2 replicas: 3 here
        assertLimitedAfterItsShare(untilLimited(30, () -> HttpRequest.newBuilder(uri("/memory/agents/events"))
                .header("Authorization", "Bearer " + writer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"agent_id":"limited","type":"agent_started"}""")).build()), 3, t0, 201);
        HttpResponse<String> q = HTTP.send(query(writer), HttpResponse.BodyHandlers.ofString());
        assertThat(q.statusCode()).as("its queries are another surface: " + q.body()).isEqualTo(200);

        String agent = token("limit-mcp", "mcp-agent");
        long t1 = System.nanoTime();
        // 8 MCP requests a minute over 2 replicas: 4 here, whatever the MCP transport answers them
        List<HttpResponse<String>> mcp = untilLimited(30, () -> HttpRequest.newBuilder(uri("/mcp"))
                .header("Authorization", "Bearer " + agent).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",
                         "capabilities":{},"clientInfo":{"name":"limited","version":"1"}}}""")).build());
        assertLimitedAfterItsShare(mcp, 4, t1, 200);
    }
}
