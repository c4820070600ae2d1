package io.poimen.memory.web.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.config.LimitsProperties;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerFilter;
import io.poimen.memory.web.limits.CallerRateLimitFilter.Surface;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * Which requests count on which surface, and who is limited, on the filter itself with servlet requests as the
 * container dispatches them; the HTTP behaviour with real bearer tokens is {@code CallerRateLimitOidcTest}.
 */
class CallerRateLimitFilterTest {
    static final Caller BOB = new Caller("bob", "Bob", null, List.of(), List.of(), List.of(), false);

    static MockHttpServletRequest request(String method, String servletPath, String pathInfo) {
        MockHttpServletRequest r = new MockHttpServletRequest(method, servletPath + (pathInfo == null ? "" : pathInfo));
        r.setServletPath(servletPath);
        r.setPathInfo(pathInfo);
        return r;
    }

    @Test
    void theQueryMcpAndWritesAreLimitedSurfacesReadsAndWebhooksAreNot() {
        assertThat(CallerRateLimitFilter.surface(request("POST", "/memory/query", null))).isEqualTo(Surface.QUERY);
        assertThat(CallerRateLimitFilter.surface(request("OPTIONS", "/memory/query", null))).isNull();
        assertThat(CallerRateLimitFilter.surface(request("POST", "/mcp", null))).isEqualTo(Surface.MCP);
        assertThat(CallerRateLimitFilter.surface(request("GET", "/mcp", null))).isEqualTo(Surface.MCP);
        assertThat(CallerRateLimitFilter.surface(request("DELETE", "/mcp", null))).isEqualTo(Surface.MCP);
        for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
            assertThat(CallerRateLimitFilter.surface(request(method, "/memory/grc/draft", null))).as(method)
                    .isEqualTo(Surface.WRITES);
        }
        assertThat(CallerRateLimitFilter.surface(request("POST", "/memory/agents/events", null)))
                .isEqualTo(Surface.WRITES);
        assertThat(CallerRateLimitFilter.surface(request("GET", "/memory/vault", null))).isNull();
        assertThat(CallerRateLimitFilter.surface(request("POST", "/memory/webhooks/forgejo", null))).isNull();
        assertThat(CallerRateLimitFilter.surface(request("GET", "/actuator/health", null))).isNull();
    }

    static int[] statuses(CallerRateLimitFilter filter, int n, Caller caller) throws Exception {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            MockHttpServletRequest r = request("POST", "/memory/query", null);
            if (caller != null) {
                r.setAttribute(CallerFilter.ATTRIBUTE, caller);
            }
            MockHttpServletResponse response = new MockHttpServletResponse();
            filter.doFilter(r, response, new MockFilterChain());
            out[i] = response.getStatus();
        }
        return out;
    }

    @Test
    void theLocalOperatorIsUnlimitedUnlessConfiguredAndABearersCallerIsLimited() throws Exception {
        LimitsProperties two = new LimitsProperties(2, 2, 2, 1, false);
        assertThat(statuses(new CallerRateLimitFilter(two, false, new SimpleMeterRegistry(), frozenTime()), 5, null))
                .as("no-auth local operator").containsOnly(200);
        assertThat(statuses(new CallerRateLimitFilter(new LimitsProperties(2, 2, 2, 1, true), false,
                new SimpleMeterRegistry(), frozenTime()), 3, null)).containsExactly(200, 200, 429);
        assertThat(statuses(new CallerRateLimitFilter(new LimitsProperties(2, 2, 2, 1, true), true,
                new SimpleMeterRegistry(), frozenTime()), 3, null)).as("oidc: a request without a caller passed "
                + "the chain unauthenticated on purpose (the webhook)").containsOnly(200);

        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        CallerRateLimitFilter oidc = new CallerRateLimitFilter(two, true, meters, frozenTime());
        assertThat(statuses(oidc, 3, BOB)).containsExactly(200, 200, 429);
        assertThat(meters.get("poimen.limits.rejected").tag("surface", "query").counter().count()).isEqualTo(1);
        assertThat(statuses(new CallerRateLimitFilter(new LimitsProperties(0, 2, 2, 1, false), true,
                new SimpleMeterRegistry(), frozenTime()), 5, BOB)).as("0: no limit").containsOnly(200);
    }

    @Test
    void overTheLimitIs429JsonWithRetryAfterAndTheLimitShareOfOneReplica() throws Exception {
        // 12 a minute over 3 replicas: 4 on this one, a token every 15 s
        CallerRateLimitFilter filter = new CallerRateLimitFilter(new LimitsProperties(12, 2, 2, 3, false), true,
                new SimpleMeterRegistry(), frozenTime());
        assertThat(statuses(filter, 4, BOB)).containsOnly(200);
        MockHttpServletRequest r = request("POST", "/memory/query", null);
        r.setAttribute(CallerFilter.ATTRIBUTE, BOB);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(r, response, chain);
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(chain.getRequest()).as("the request went no further").isNull();
        assertThat(response.getHeader("Retry-After")).isEqualTo("15");
        assertThat(response.getContentType()).startsWith("application/json");
        JsonNode body = new ObjectMapper().readTree(response.getContentAsString());
        assertThat(body.path("error").asText()).isEqualTo("rate_limited");
        assertThat(body.path("message").asText()).contains("12 requests per minute to query", "retry after 15 s");
    }

    private static TokenBucketsTest.ManualTicker frozenTime() {
        return new TokenBucketsTest.ManualTicker();
    }
}
