package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.ExistenceProbes;
import io.poimen.memory.testsupport.HostileMcpRequests;
import io.poimen.memory.config.HttpProperties;
import io.poimen.memory.testsupport.HostileRequests;
import io.poimen.memory.testsupport.HugeBodies;
import io.poimen.memory.testsupport.OidcHubTestBase;
import io.poimen.memory.testsupport.PolicyTrace;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Fuzz test of the hub in oidc mode (issue 12, Done when): generated hostile requests at every endpoint of the
 * OpenAPI document, by callers who may not read the planted ml-team note (no groups, platform, devops) and with
 * bad tokens; no 5xx, every error JSON {@code {error, message}}, no body echoed, and neither the planted note's path,
 * heading nor text in any answer, though an ml-team agent retrieved it before (so it is in the agent log), nor the
 * text of a query in poimen whose results they could not all have seen. In the MCP fuzz, no caller is served in
 * another caller's session. Bodies over each endpoint's cap at every endpoint that reads one (security test, item 1).
 */
class HostileRequestsOidcTest extends OidcHubTestBase {
    static final String PRIVILEGED_QUERY = "quorvex gpu pod pending toleration ml training debugging";
    @Autowired HttpProperties http;

    @Test
    void hostileRequestsGetJsonErrorsNo5xxAndNothingOfTheDeniedNote() throws Exception {
        HttpResponse<String> planted = post(bob(), "/memory/query",
                "{\"project\":\"ml-training\",\"query\":\"gpu node drains secret\",\"agent_id\":\"trainer\"}");
        assertThat(planted.body()).contains(PLANTED_PATH, PLANTED_TEXT);
        // a query in poimen, which charlie and dave read, by a caller who also reads the ml-team's private skill
        // (linked from poimen): its event is another caller's that they could not see all of, so none of its text
        // may reach them (security issue item 5)
        HttpResponse<String> privileged = post(token("erin", List.of("platform-team", "ml-team"), List.of("viewer")),
                "/memory/query", "{\"project\":\"poimen\",\"query\":\"" + PRIVILEGED_QUERY
                        + "\",\"agent_id\":\"oncall\"}");
        assertThat(privileged.body()).contains("shared/skills/SKILL-private-debug/SKILL.md");
        String doc = get(nobody(), "/memory/openapi.json").body();
        List<HostileRequests.Endpoint> endpoints = HostileRequests.endpoints(new ObjectMapper().readTree(doc));
        assertThat(endpoints).hasSizeGreaterThan(15);
        List<String> callers = List.of(nobody(), charlie(), dave());
        HostileRequests fuzz = new HostileRequests(11_2026L, port, () -> callers,
                List.of(PLANTED_TEXT, PLANTED_HEADING, PLANTED_PATH, "quorvex"),
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

    /**
     * Existence probes (issue: existence oracles): a path under an existing note, a note, attachment or project the
     * caller may not read, each against its missing twin, at every note, attachment and project surface, and names
     * (wiki-link name, alias, memory:// URL) only a denied note has against a name nothing has; the same
     * answer but for the name,
     * and no probe logs a policy ERROR or moves {@code poimen_policy_rejected}.
     */
    @Test
    void existenceProbesGetTheAnswerOfSomethingMissingAndLeaveNoTrace() throws Exception {
        ExistenceProbes probes = new ExistenceProbes(11_2028L, port, List.of(nobody(), charlie(), dave()),
                List.of(PLANTED_PATH, "projects/ml-training/runbooks/gpu-node.md", "projects/poimen/tools/kubectl.md",
                        "projects/poimen/index.md", "shared/concepts/gitops.md",
                        "shared/skills/SKILL-private-debug/SKILL.md"),
                List.of(PLANTED_PATH, "projects/ml-training/runbooks/gpu-node.md",
                        "shared/skills/SKILL-private-debug/SKILL.md"),
                List.of("ml-training"), List.of(PLANTED_ATTACHMENT),
                List.of(PLANTED_TEXT, PLANTED_HEADING, "not_in_", "_default_deny",
                        "policy_unparseable", "ml-team"))
                .withDeniedNames(List.of("gpu-node", "runbooks/gpu-node", "memory://ml-training/gpu-node",
                        "planted-secret", PLANTED_ALIAS, "memory://planted-secret", "SKILL-private-debug",
                        "memory://shared/SKILL-private-debug", "shared:skills/SKILL-private-debug#Heading"));
        try (PolicyTrace trace = PolicyTrace.start(meters)) {
            int sent = probes.run(400);
            System.out.println("existence probes (oidc): " + sent + " requests (" + probes.nameRequests
                    + " by name); by surface and status: " + probes.statuses);
            assertThat(sent).isEqualTo(800);
            assertThat(probes.nameRequests).isPositive();
            trace.assertNothingLeft();
        }
        assertThat(probes.statuses.keySet()).anyMatch(k -> k.endsWith(" 403")).anyMatch(k -> k.endsWith(" 404"))
                .contains("GET /memory/vault/attachment 404")
                .anyMatch(k -> k.endsWith(" 200"));
    }

    @org.springframework.beans.factory.annotation.Autowired io.micrometer.core.instrument.MeterRegistry meters;
}
