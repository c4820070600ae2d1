package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.HttpProperties;
import io.poimen.memory.testsupport.HostileRequests;
import io.poimen.memory.testsupport.HugeBodies;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Request bodies on the hub in oidc mode over HTTP (security test, item 1): a caller with a valid bearer gets the 413 of
 * each endpoint's cap, before the body is read when it declares its length and after cap + 1 bytes when it does
 * not; a caller without one gets its 401 without the hub reading a byte; the webhook (no bearer) has its own cap. And
 * an Error in a route step is a 500 JSON answer, never the request body.
 */
class RequestBodiesOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final long HUGE = 300L << 20;

    @Autowired HttpProperties http;
    @Autowired CamelContext camel;

    @AfterEach
    void removeTestRoute() throws Exception {
        if (camel.getRoute("test-oidc-step-error") != null) {
            camel.getRouteController().stopRoute("test-oidc-step-error");
            camel.removeRoute("test-oidc-step-error");
        }
    }

    static String error(HostileRequests.Answer a) throws Exception {
        assertThat(a.headers().get("content-type")).as(a.text()).startsWith("application/json");
        return JSON.readTree(a.body()).path("error").asText();
    }

    @Test
    void aCallerWithABearerGetsEachEndpointsCapAndAHugeBodyIsNeverReadWhole() throws Exception {
        String bearer = "Bearer " + bob();
        long sent = 0;
        for (HugeBodies.BodyEndpoint e : HugeBodies.bodyEndpoints()) {
            long cap = e.capBytes(http);
            HugeBodies.Sent declared = HugeBodies.send(port, e.method(), e.path(), e.headers("Authorization", bearer),
                    0, cap + 1, false);
            assertThat(declared.answer().status()).as(e.path() + ": " + declared.answer().text()).isEqualTo(413);
            assertThat(error(declared.answer())).isEqualTo("payload_too_large");
            HugeBodies.Sent chunked = HugeBodies.send(port, e.method(), e.path(), e.headers("Authorization", bearer),
                    HUGE, -1, true);
            assertThat(chunked.answer().status()).as(e.path() + ": " + chunked.answer().text()).isEqualTo(413);
            assertThat(chunked.bodyBytesSent()).as(e.path() + ": bytes the hub let in").isLessThan(32L << 20);
            sent += chunked.bodyBytesSent();
        }
        System.out.printf("huge bodies (oidc): %d chunked requests of %d MB, %.1f MB sent in all%n",
                HugeBodies.bodyEndpoints().size(), HUGE >> 20, sent / 1048576.0);
    }

    @Test
    void aCallerWithoutAValidBearerGetsItsUnauthorizedAnswerWithoutTheBodyBeingRead() throws Exception {
        for (HugeBodies.BodyEndpoint e : HugeBodies.bodyEndpoints()) {
            if (e.path().equals("/memory/webhooks/forgejo")) {
                continue;
            }
            for (String[] auth : new String[][] {{}, {"Authorization", "Bearer x.y.z"}}) {
                // a length within the cap, and not a byte of the body sent: the answer cannot wait for it
                HugeBodies.Sent s = HugeBodies.send(port, e.method(), e.path(), e.headers(auth), 0, 1000, false);
                assertThat(s.answer().status()).as(e.path() + ": " + s.answer().text()).isEqualTo(401);
                assertThat(error(s.answer())).isEqualTo("unauthorized");
            }
        }
        HugeBodies.BodyEndpoint webhook = HugeBodies.bodyEndpoints().stream()
                .filter(e -> e.path().equals("/memory/webhooks/forgejo")).findFirst().orElseThrow();
        HugeBodies.Sent s = HugeBodies.send(port, "POST", webhook.path(), webhook.headers(), HUGE, -1, true);
        assertThat(s.answer().status()).as("the webhook takes no bearer: " + s.answer().text()).isEqualTo(413);
        assertThat(s.bodyBytesSent()).isLessThan(32L << 20);
    }

    @Test
    void anErrorThrownInARouteStepIsA500JsonAnswerNeverTheRequestBody() throws Exception {
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("platform-http:/memory/test-oidc-step-error?httpMethodRestrict=POST")
                        .routeId("test-oidc-step-error").routeConfigurationId("api-errors")
                        .convertBodyTo(byte[].class)
                        .process(e -> {
                            throw new OutOfMemoryError("test: a route step ran out of memory");
                        });
            }
        });
        String marker = "echo-me-" + UUID.randomUUID();
        HttpResponse<String> r = post(bob(), "/memory/test-oidc-step-error", "{\"marker\":\"" + marker + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(500);
        assertThat(JSON.readTree(r.body()).path("error").asText()).isEqualTo("internal_error");
        assertThat(r.body()).doesNotContain(marker, "OutOfMemoryError");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(camel.getInflightRepository().size("test-oidc-step-error")).isZero());
    }
}
