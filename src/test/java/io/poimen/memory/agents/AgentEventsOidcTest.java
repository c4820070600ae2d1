package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Agent events under OIDC (issue 12 item 1; security issue item 5): bound to the caller who produced them; another
 * caller's event shown only to callers allowed its project who may read every note it names, whole but for its
 * session id, and otherwise not at all.
 */
class AgentEventsOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aViewerWithoutGroupsSeesNothingOfAnMlTeamRetrieval() throws Exception {
        String session = "gpu-" + UUID.randomUUID();
        HttpResponse<String> q = post(bob(), "/memory/query", """
                {"project":"ml-training","query":"gpu node drains secret","agent_id":"trainer","session_id":"%s"}"""
                .formatted(session));
        assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
        assertThat(q.body()).contains(PLANTED_PATH);

        JsonNode own = JSON.readTree(get(bob(), "/memory/agents/logs?session_id=" + session).body()).path("events");
        assertThat(own).hasSize(1);
        assertThat(own.get(0).path("agent_id").asText()).isEqualTo("bob/trainer");
        assertThat(own.get(0).path("user").asText()).isEqualTo("bob");
        assertThat(own.get(0).toString()).contains(PLANTED_PATH, PLANTED_HEADING);

        for (String viewer : new String[] {nobody(), charlie(), dave()}) {
            HttpResponse<String> logs = get(viewer, "/memory/agents/logs?limit=1000");
            assertThat(logs.statusCode()).isEqualTo(200);
            assertThat(logs.body()).doesNotContain("projects/ml-training", PLANTED_HEADING, "gpu node drains");
            HttpResponse<String> bySession = get(viewer, "/memory/agents/logs?session_id=" + session);
            assertThat(JSON.readTree(bySession.body()).path("events")).isEmpty();
            HttpResponse<String> byAgent = get(viewer, "/memory/agents/logs?agent_id=bob/trainer");
            assertThat(JSON.readTree(byAgent.body()).path("events")).isEmpty();
        }
    }

    @Test
    void agentIdsAreNamespacedByTheCallerSoNobodyWritesIntoAnothersTimeline() throws Exception {
        String session = "spoof-" + UUID.randomUUID();
        HttpResponse<String> mine = post(bob(), "/memory/agents/events", """
                {"agent_id":"builder","session_id":"%s","type":"agent_started"}""".formatted(session));
        assertThat(mine.statusCode()).as(mine.body()).isEqualTo(201);
        assertThat(JSON.readTree(mine.body()).path("agent_id").asText()).isEqualTo("bob/builder");

        HttpResponse<String> spoof = post(nobody(), "/memory/agents/events", """
                {"agent_id":"builder","session_id":"%s","type":"agent_decision"}""".formatted(session));
        assertThat(spoof.statusCode()).isEqualTo(201);
        assertThat(JSON.readTree(spoof.body()).path("agent_id").asText()).isEqualTo("nobody/builder");
        HttpResponse<String> slash = post(nobody(), "/memory/agents/events", """
                {"agent_id":"bob/builder","type":"agent_decision"}""");
        assertThat(slash.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(slash.body()).path("message").asText()).contains("agent_id");
        HttpResponse<String> viaQuery = post(nobody(), "/memory/query", """
                {"project":"rust-guide","query":"ownership borrowing","agent_id":"bob/builder"}""");
        assertThat(viaQuery.statusCode()).isEqualTo(400);

        // bob's own agent "builder" holds only bob's event
        JsonNode timeline = JSON.readTree(get(bob(), "/memory/agents/logs?agent_id=builder").body()).path("events");
        assertThat(timeline).isNotEmpty().allSatisfy(e -> assertThat(e.path("user").asText()).isEqualTo("bob"));
        assertThat(timeline.findValuesAsText("session_id")).contains(session);
        assertThat(timeline.findValuesAsText("type")).doesNotContain("agent_decision");
    }

    @Test
    void aViewerAllowedTheProjectSeesAnothersEventWholeOnlyWhenTheyMayReadEveryNoteItNames() throws Exception {
        String session = "mixed-" + UUID.randomUUID();
        String fixer = "fixer-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> mixed = post(charlie(), "/memory/agents/events", """
                {"agent_id":"%s","session_id":"%s","type":"tool_result","payload":{"project":"poimen",
                 "query":"pods","chunks":[
                   {"path":"projects/poimen/tools/kubectl.md","heading":"kubectl basics","score":0.9},
                   {"path":"shared/skills/SKILL-private-debug/SKILL.md","heading":"Private heading","score":0.8}],
                 "scores":[0.9,0.8]}}""".formatted(fixer, session));
        assertThat(mixed.statusCode()).as(mixed.body()).isEqualTo(201);
        HttpResponse<String> mentioning = post(charlie(), "/memory/agents/events", """
                {"agent_id":"%s","session_id":"%s","type":"agent_decision","payload":{"project":"poimen",
                 "reasoning":"compare with projects/ml-training/runbooks/gpu-node.md"}}""".formatted(fixer, session));
        assertThat(mentioning.statusCode()).as(mentioning.body()).isEqualTo(201);
        HttpResponse<String> readable = post(charlie(), "/memory/agents/events", """
                {"agent_id":"%s","session_id":"%s","type":"tool_result","payload":{"project":"poimen",
                 "query":"pods","chunks":[
                   {"path":"projects/poimen/tools/kubectl.md","heading":"kubectl basics","score":0.9}],
                 "scores":[0.9]}}""".formatted(fixer, session));
        assertThat(readable.statusCode()).as(readable.body()).isEqualTo(201);

        // dave reads poimen but neither the private skill nor ml-training: only the last event, whole, and no
        // trace of the others (no shortened chunk list, no hidden path, no session id)
        JsonNode seen = JSON.readTree(get(dave(), "/memory/agents/logs?agent_id=charlie/" + fixer).body())
                .path("events");
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).path("id").asLong()).isEqualTo(JSON.readTree(readable.body()).path("id").asLong());
        assertThat(seen.get(0).path("payload")).isEqualTo(JSON.readTree(readable.body()).path("payload"));
        assertThat(seen.get(0).has("session_id")).isFalse();
        assertThat(seen.toString()).doesNotContain("Private heading", "ml-training", "SKILL-private-debug",
                "[path hidden]", session);
        // charlie, the owner, sees all three with the session
        JsonNode owners = JSON.readTree(get(charlie(), "/memory/agents/logs?session_id=" + session).body())
                .path("events");
        assertThat(owners).hasSize(3);
        assertThat(owners.findValuesAsText("session_id")).containsOnly(session);

        // a caller not allowed poimen sees none of it, nor may post into it
        HttpResponse<String> foreign = post(nobody(), "/memory/agents/events", """
                {"agent_id":"noise","type":"agent_decision","payload":{"project":"poimen"}}""");
        assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
        assertThat(JSON.readTree(get(nobody(), "/memory/agents/logs?agent_id=charlie/" + fixer).body())
                .path("events")).isEmpty();
    }
}
