package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.ExistenceProbes;
import io.poimen.memory.testsupport.HostileMcpRequests;
import io.poimen.memory.config.HttpProperties;
import io.poimen.memory.testsupport.HostileRequests;
import io.poimen.memory.testsupport.HugeBodies;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Fuzz test of the embedded no-auth hub (issue 12, Done when): generated hostile requests (methods, bodies,
 * encodings, sizes, content types, Host and Origin headers) at every endpoint of the OpenAPI document; no 5xx,
 * every error JSON {@code {error, message}}, no body echoed; and bodies over each endpoint's cap at every endpoint that
 * reads one (security test, item 1). Deterministic seeds.
 */
class HostileRequestsNoAuthTest extends HubWebTestBase {
    @Autowired HttpProperties http;

    @Test
    void everyEndpointAnswersHostileRequestsWithJsonErrorsAndNo5xx() throws Exception {
        String doc = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base() + "/memory/openapi.json"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        List<HostileRequests.Endpoint> endpoints = HostileRequests.endpoints(new ObjectMapper().readTree(doc));
        assertThat(endpoints).hasSizeGreaterThan(15);
        HostileRequests fuzz = new HostileRequests(12_2026L, port, List::of, List.of(),
                List.of("projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md"));

        long t0 = System.nanoTime();
        assertThat(fuzz.run(endpoints, 1500)).isEqualTo(1500);
        System.out.printf("hostile requests (%s): 1500 in %.1f s%n", "no-auth", (System.nanoTime() - t0) / 1e9);

        System.out.println("hostile requests (no-auth) by endpoint and status: " + fuzz.statuses);
        assertThat(fuzz.statuses.keySet()).as("the Host allow-list answered").anyMatch(k -> k.endsWith(" 403"));
        assertThat(fuzz.statuses.keySet()).as("some requests got through").anyMatch(k -> k.endsWith(" 200"));
    }

    @Test
    void everyEndpointThatReadsABodyRefusesGeneratedBodiesOverItsCap() throws Exception {
        HostileRequests fuzz = new HostileRequests(33_2026L, port, List::of, List.of(),
                List.of("projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md"));
        long t0 = System.nanoTime();
        int sent = fuzz.runOverCaps(HugeBodies.bodyEndpoints(), e -> e.capBytes(http), 25);
        System.out.printf("bodies over the cap (no-auth): %d in %.1f s; by status: %s%n", sent,
                (System.nanoTime() - t0) / 1e9, fuzz.statuses);
        assertThat(sent).isEqualTo(25 * HugeBodies.bodyEndpoints().size());
        fuzz.assertEachRefusedABodyOverItsCap(HugeBodies.bodyEndpoints());
    }

    @Test
    void theMcpEndpointAnswersHostileSessionsAndToolCallsWithJsonErrorsNo5xxAndNoHang() throws Exception {
        HostileMcpRequests fuzz = new HostileMcpRequests(12_2027L, port, List.of(""), List.of(),
                List.of("projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md", "README.md"));
        long t0 = System.nanoTime();
        assertThat(fuzz.run(400)).isEqualTo(400);
        System.out.printf("hostile MCP requests (no-auth): 400 in %.1f s; by status: %s%n",
                (System.nanoTime() - t0) / 1e9, fuzz.statuses);
        assertThat(fuzz.statuses.keySet()).as("tool calls got through").anyMatch(k -> k.endsWith(" 200"));
        assertThat(fuzz.statuses.keySet()).as("bad requests were refused").anyMatch(k -> k.endsWith(" 400"));
    }

    /** A path under an existing note answers as one under a note that does not exist (issue: existence oracles). */
    @Test
    void pathsUnderANoteGetTheAnswerOfAPathUnderAMissingOneNo5xx() throws Exception {
        ExistenceProbes probes = new ExistenceProbes(12_2028L, port, List.of(""),
                List.of("projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md",
                        "shared/concepts/gitops.md"), List.of(), List.of(), List.of());
        int sent = probes.run(200);
        System.out.println("existence probes (no-auth): " + sent + " requests; by surface and status: "
                + probes.statuses);
        assertThat(sent).isEqualTo(400);
        assertThat(probes.statuses.keySet()).anyMatch(k -> k.endsWith(" 404")).anyMatch(k -> k.endsWith(" 200"));
    }

    @Test
    void anUnknownHealthGroupAnswersAJson404() throws Exception {
        for (String path : List.of("/actuator/health/no-such-group", "/actuator/health/?path=x")) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base() + path))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.headers().firstValue("Content-Type")).as(path).hasValueSatisfying(
                    t -> assertThat(t).startsWith("application/json"));
            assertThat(new ObjectMapper().readTree(r.body()).path("error").asText()).as(path).isEqualTo("not_found");
        }
    }

    @Test
    void aRefusedMcpRequestTellsItsErrorWithoutAStackTrace() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(400, 499);
        assertThat(r.body()).doesNotContain("stackTrace", "\tat ", "className");
        assertThat(new ObjectMapper().readTree(r.body()).path("error").path("message").asText()).isNotBlank();
    }
}
