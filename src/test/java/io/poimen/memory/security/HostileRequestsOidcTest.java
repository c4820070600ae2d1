package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.HostileMcpRequests;
import io.poimen.memory.config.HttpProperties;
import io.poimen.memory.testsupport.HostileRequests;
import io.poimen.memory.testsupport.HugeBodies;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Fuzz test of the hub in oidc mode (issue 12, Done when): generated hostile requests at every endpoint of the
 * OpenAPI document, by callers who may not read the planted ml-team note (no groups, platform, devops) and with
 * bad tokens; no 5xx, every error JSON {@code {error, message}}, no body echoed, and neither the planted note's path,
 * heading nor text in any answer, though an ml-team agent retrieved it before (so it is in the agent log); and bodies
 * over each endpoint's cap at every endpoint that reads one (security test, item 1).
 */
class HostileRequestsOidcTest extends OidcHubTestBase {
    @Autowired HttpProperties http;

    @Test
    void hostileRequestsGetJsonErrorsNo5xxAndNothingOfTheDeniedNote() throws Exception {
        HttpResponse<String> planted = post(bob(), "/memory/query",
                "{\"project\":\"ml-training\",\"query\":\"gpu node drains secret\",\"agent_id\":\"trainer\"}");
        assertThat(planted.body()).contains(PLANTED_PATH, PLANTED_TEXT);
        String doc = get(nobody(), "/memory/openapi.json").body();
        List<HostileRequests.Endpoint> endpoints = HostileRequests.endpoints(new ObjectMapper().readTree(doc));
        assertThat(endpoints).hasSizeGreaterThan(15);
        List<String> callers = List.of(nobody(), charlie(), dave());
        HostileRequests fuzz = new HostileRequests(11_2026L, port, () -> callers,
                List.of(PLANTED_TEXT, PLANTED_HEADING, PLANTED_PATH),
                List.of(PLANTED_PATH, "projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md",
                        "shared/skills/SKILL-private-debug/SKILL.md"));

        long t0 = System.nanoTime();
        assertThat(fuzz.run(endpoints, 1500)).isEqualTo(1500);
        System.out.printf("hostile requests (%s): 1500 in %.1f s%n", "oidc", (System.nanoTime() - t0) / 1e9);

        System.out.println("hostile requests (oidc) by endpoint and status: " + fuzz.statuses);
        assertThat(fuzz.statuses.keySet()).anyMatch(k -> k.endsWith(" 401"));
        assertThat(fuzz.statuses.keySet()).anyMatch(k -> k.endsWith(" 200"));
    }

    @Test
    void everyEndpointThatReadsABodyRefusesGeneratedBodiesOverItsCapAndNothingOfTheDeniedNote() throws Exception {
        List<String> callers = List.of(nobody(), charlie(), dave());
        HostileRequests fuzz = new HostileRequests(33_2027L, port, () -> callers,
                List.of(PLANTED_TEXT, PLANTED_HEADING, PLANTED_PATH),
                List.of(PLANTED_PATH, "projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md"));
        long t0 = System.nanoTime();
        int sent = fuzz.runOverCaps(HugeBodies.bodyEndpoints(), e -> e.capBytes(http), 25);
        System.out.printf("bodies over the cap (oidc): %d in %.1f s; by status: %s%n", sent,
                (System.nanoTime() - t0) / 1e9, fuzz.statuses);
        assertThat(sent).isEqualTo(25 * HugeBodies.bodyEndpoints().size());
        fuzz.assertEachRefusedABodyOverItsCap(HugeBodies.bodyEndpoints());
        assertThat(fuzz.statuses.keySet()).anyMatch(k -> k.endsWith(" 401"));
    }

    @Test
    void hostileMcpSessionsAndToolCallsGetJsonErrorsNo5xxNoHangAndNothingOfTheDeniedNote() throws Exception {
        HttpResponse<String> planted = post(bob(), "/memory/query",
                "{\"project\":\"ml-training\",\"query\":\"gpu node drains secret\",\"agent_id\":\"trainer\"}");
        assertThat(planted.body()).contains(PLANTED_PATH, PLANTED_TEXT);
        List<String> callers = List.of("Bearer " + nobody(), "Bearer " + charlie(), "Bearer " + dave(), "",
                "Bearer x.y.z");
        HostileMcpRequests fuzz = new HostileMcpRequests(11_2027L, port, callers,
                List.of(PLANTED_TEXT, PLANTED_HEADING, PLANTED_PATH),
                List.of(PLANTED_PATH, "projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md",
                        "shared/skills/SKILL-private-debug/SKILL.md", "README.md"));
        long t0 = System.nanoTime();
        assertThat(fuzz.run(400)).isEqualTo(400);
        System.out.printf("hostile MCP requests (oidc): 400 in %.1f s; by status: %s%n",
                (System.nanoTime() - t0) / 1e9, fuzz.statuses);
        assertThat(fuzz.statuses.keySet()).anyMatch(k -> k.startsWith("anonymous") && k.endsWith(" 401"));
        assertThat(fuzz.statuses.keySet()).anyMatch(k -> k.endsWith(" 200"));
    }
}
