package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.testsupport.HostileRequests;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@code POST /memory/query} through {@link QueryServlet} on the embedded hub, over a raw socket: the answer of
 * {@code direct:query} with its status, a Content-Length (no chunked encoding), the request's trace id, the
 * security headers of the filter chain, the API's JSON errors, and the {@code http.server.requests} meter.
 */
class QueryServletHttpTest extends HubWebTestBase {
    private static final String TRACEPARENT = "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Autowired
    MeterRegistry meters;

    @Test
    void answersTheRouteJsonWithItsLengthAndTheTraceId() throws Exception {
        HostileRequests.Answer a = post(QueryServlet.PATH, "application/json",
                "{\"project\":\"poimen\",\"query\":\"kubernetes debugging\"}", TRACEPARENT);

        assertThat(a.status()).as(a.text()).isEqualTo(200);
        assertThat(a.headers().get("content-type")).isEqualTo("application/json");
        assertThat(a.headers()).doesNotContainKey("transfer-encoding");
        assertThat(a.headers().get("content-length")).isEqualTo(String.valueOf(a.body().length));
        assertThat(a.headers().get("x-trace-id")).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(a.headers().get("x-content-type-options")).isEqualTo("nosniff");
        assertThat(a.headers()).containsKey("content-security-policy");
        JsonNode body = JSON.readTree(a.body());
        assertThat(body.path("project").asText()).isEqualTo("poimen");
        assertThat(body.path("results").size()).isPositive();
        assertThat(body.path("timings_ms").has("total")).isTrue();
    }

    @Test
    void routeErrorsKeepTheirStatusShapeAndLength() throws Exception {
        HostileRequests.Answer a = post(QueryServlet.PATH, "application/json",
                "{\"project\":\"no-such-project\",\"query\":\"pods\"}", TRACEPARENT);

        JsonNode body = error(a, 404);
        assertThat(body.path("error").asText()).isEqualTo("not_found");
        assertThat(body.path("message").asText()).contains("no-such-project");
        assertThat(a.headers().get("content-length")).isEqualTo(String.valueOf(a.body().length));
        assertThat(a.headers().get("x-trace-id")).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(error(post(QueryServlet.PATH, "application/json", ""), 400).path("message").asText())
                .contains("empty body");
    }

    @Test
    void aBodyOverTheLimitIsA413AndTheHubGoesOnAnswering() throws Exception {
        String big = "{\"project\":\"poimen\",\"query\":\"" + "x".repeat(1024 * 1024) + "\"}";
        JsonNode body = error(post(QueryServlet.PATH, "application/json", big), 413);
        assertThat(body.path("error").asText()).isEqualTo("payload_too_large");
        assertThat(body.path("message").asText()).contains(String.valueOf(64 * 1024));
        assertThat(post(QueryServlet.PATH, "application/json",
                "{\"project\":\"poimen\",\"query\":\"kubernetes debugging\"}").status()).isEqualTo(200);
    }

    @Test
    void otherMethodsAreA405JsonAnswerWithAllowAndOptionsListsPost() throws Exception {
        byte[] none = new byte[0];
        for (String method : new String[] {"GET", "PUT", "DELETE", "PATCH"}) {
            HostileRequests.Answer a = send(method, QueryServlet.PATH, "127.0.0.1", "application/json",
                    method.equals("GET") || method.equals("DELETE") ? none : "{}".getBytes(StandardCharsets.UTF_8));
            assertThat(error(a, 405).path("error").asText()).as(method).isEqualTo("method_not_allowed");
            assertThat(a.headers().get("allow")).as(method).isEqualTo("POST");
            assertThat(a.headers().get("x-trace-id")).as(method).matches("[0-9a-f]{32}");
        }
        HostileRequests.Answer options = send("OPTIONS", QueryServlet.PATH, "127.0.0.1", null, none);
        assertThat(options.status()).isEqualTo(200);
        assertThat(options.headers().get("allow")).isEqualTo("POST,OPTIONS");
    }

    @Test
    void theRequestMeterNamesTheQueryPath() throws Exception {
        post(QueryServlet.PATH, "application/json", "{\"project\":\"poimen\",\"query\":\"gpu node\"}");
        post(QueryServlet.PATH, "application/json", "{\"project\":\"no-such-project\",\"query\":\"pods\"}");
        send("DELETE", QueryServlet.PATH, "127.0.0.1", null, new byte[0]);

        // the meter is recorded once the filter chain unwinds, which may be just after the answer went out
        for (String[] call : new String[][] {{"POST", "200"}, {"POST", "404"}, {"DELETE", "405"}}) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(meters.find("http.server.requests")
                    .tags("uri", QueryServlet.PATH, "method", call[0], "status", call[1]).timer())
                    .as(String.join(" ", call)).isNotNull());
        }
    }
}
