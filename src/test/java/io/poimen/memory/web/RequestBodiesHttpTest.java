package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.config.HttpProperties;
import io.poimen.memory.testsupport.HostileRequests;
import io.poimen.memory.testsupport.HugeBodies;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.DataFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Request bodies on the embedded no-auth hub over HTTP (security test, item 1): every endpoint that reads a body refuses
 * one over its cap ({@code poimen.http.max-body.*}) with a 413 JSON answer, before reading it when it declares its
 * length and after cap + 1 bytes when it does not; a body at the cap is taken. And no failure answers with the
 * request body: an Error thrown in a route step is the route's 500 JSON answer, and the exchange leaves its routes.
 */
class RequestBodiesHttpTest extends HubWebTestBase {
    /** Far over every cap; never sent whole. */
    static final long HUGE = 300L << 20;
    /** What the hub may have taken of a huge body at most: cap, Tomcat's swallow of 2 MB, socket buffers. */
    static final long NOT_CONSUMED = 32L << 20;

    @Autowired HttpProperties http;
    @Autowired CamelContext camel;

    @AfterEach
    void removeTestRoutes() throws Exception {
        for (String id : new String[] {"test-step-error", "test-step-error-2", "test-unhandled-failure"}) {
            if (camel.getRoute(id) != null) {
                camel.getRouteController().stopRoute(id);
                camel.removeRoute(id);
            }
        }
    }

    static JsonNode json(HostileRequests.Answer a) throws Exception {
        assertThat(a.headers().get("content-type")).as(a.text()).startsWith("application/json");
        return JSON.readTree(a.body());
    }

    @Test
    void aContentLengthOverTheCapIsA413AnsweredBeforeTheBodyIsSent() throws Exception {
        for (HugeBodies.BodyEndpoint e : HugeBodies.bodyEndpoints()) {
            long cap = e.capBytes(http);
            HugeBodies.Sent s = HugeBodies.send(port, e.method(), e.path(), e.headers(), 0, cap + 1, false);
            assertThat(s.answer().status()).as(e + ": " + s.answer().text()).isEqualTo(413);
            JsonNode body = json(s.answer());
            assertThat(body.path("error").asText()).isEqualTo("payload_too_large");
            assertThat(body.path("message").asText()).as(e.path()).contains(Long.toString(cap), "poimen.http.max-body.");
        }
    }

    @Test
    void aBodyOfHundredsOfMegabytesIsCutAtItsCapAndNeverReadWhole() throws Exception {
        long sent = 0;
        for (HugeBodies.BodyEndpoint e : HugeBodies.bodyEndpoints()) {
            for (boolean chunked : new boolean[] {true, false}) {
                HugeBodies.Sent s = HugeBodies.send(port, e.method(), e.path(), e.headers(), HUGE, -1, chunked);
                String what = e.path() + (chunked ? " chunked" : " with its length");
                assertThat(s.answer().status()).as(what + ": " + s.answer().text()).isEqualTo(413);
                assertThat(json(s.answer()).path("error").asText()).isEqualTo("payload_too_large");
                assertThat(s.bodyBytesSent()).as(what + ": bytes the hub let in").isLessThan(NOT_CONSUMED);
                sent += s.bodyBytesSent();
            }
        }
        System.out.printf("huge bodies (no-auth): %d requests of %d MB, %.1f MB sent in all%n",
                HugeBodies.bodyEndpoints().size() * 2, HUGE >> 20, sent / 1048576.0);
        assertThat(post("/memory/query", "application/json", "{\"project\":\"poimen\",\"query\":\"kubectl pods\"}")
                .status()).as("the hub goes on answering").isEqualTo(200);
    }

    @Test
    void aBodyAtItsCapIsTaken() throws Exception {
        for (HugeBodies.BodyEndpoint e : HugeBodies.bodyEndpoints()) {
            long cap = e.capBytes(http);
            for (boolean chunked : new boolean[] {true, false}) {
                HugeBodies.Sent s = HugeBodies.send(port, e.method(), e.path(), e.headers(), cap, -1, chunked);
                assertThat(s.answer().status()).as(e.path() + " " + chunked + ": " + s.answer().text())
                        .isNotEqualTo(413).isBetween(200, 503);
                assertThat(s.bodyBytesSent()).isEqualTo(cap);
            }
        }
    }

    @Test
    void anErrorThrownInARouteStepIsTheRoutes500JsonAnswerNeverTheRequestBody() throws Exception {
        AtomicBoolean wentOn = new AtomicBoolean();
        DataFormat exhausted = new DataFormat() {
            @Override
            public void marshal(Exchange exchange, Object graph, OutputStream stream) {
                throw new OutOfMemoryError("test: marshalling ran out of memory");
            }

            @Override
            public Object unmarshal(Exchange exchange, InputStream stream) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void start() {
            }

            @Override
            public void stop() {
            }
        };
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                // one of Camel's own (asynchronous) steps, and a plain processor
                from("platform-http:/memory/test-step-error/marshal?httpMethodRestrict=POST")
                        .routeId("test-step-error").routeConfigurationId("api-errors")
                        .convertBodyTo(byte[].class)
                        .marshal(exhausted)
                        .process(e -> wentOn.set(true));
                from("platform-http:/memory/test-step-error/process?httpMethodRestrict=POST")
                        .routeId("test-step-error-2").routeConfigurationId("api-errors")
                        .convertBodyTo(byte[].class)
                        .process(e -> {
                            throw new StackOverflowError("test: a processor recursed too deep");
                        })
                        .process(e -> wentOn.set(true));
            }
        });
        for (String step : new String[] {"marshal", "process"}) {
            String marker = "echo-me-" + UUID.randomUUID();
            HostileRequests.Answer a = post("/memory/test-step-error/" + step, "application/json",
                    "{\"marker\":\"" + marker + "\"}");
            assertThat(a.status()).as(step + ": " + a.text()).isEqualTo(500);
            assertThat(json(a).path("error").asText()).isEqualTo("internal_error");
            assertThat(a.text()).doesNotContain(marker, "OutOfMemoryError", "StackOverflowError", "\tat ");
        }
        assertThat(wentOn).as("the route did not go on past the failed step").isFalse();
        for (String route : new String[] {"test-step-error", "test-step-error-2"}) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(camel.getInflightRepository().size(route)).as(route + " in flight").isZero());
        }
        assertThat(post("/memory/query", "application/json", "{\"project\":\"poimen\",\"query\":\"kubectl pods\"}")
                .status()).isEqualTo(200);
    }

    @Test
    void aFailureNoErrorHandlerAnsweredIsA500JsonAnswerWithoutAStackTrace() throws Exception {
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                // a route an operator adds without routeConfigurationId: api-errors
                from("platform-http:/memory/test-unhandled-failure?httpMethodRestrict=POST")
                        .routeId("test-unhandled-failure")
                        .process(e -> {
                            throw new IllegalStateException("unhandled detail quorvex");
                        });
            }
        });
        String marker = "echo-me-" + UUID.randomUUID();
        HostileRequests.Answer a = send("POST", "/memory/test-unhandled-failure", "127.0.0.1:" + port,
                "application/json", ("{\"marker\":\"" + marker + "\"}").getBytes(StandardCharsets.UTF_8));
        assertThat(a.status()).as(a.text()).isEqualTo(500);
        assertThat(json(a).path("error").asText()).isEqualTo("internal_error");
        assertThat(a.text()).doesNotContain(marker, "quorvex", "IllegalStateException", "\tat ");
        assertThat(Map.of("in flight", camel.getInflightRepository().size("test-unhandled-failure")))
                .containsEntry("in flight", 0);
    }
}
