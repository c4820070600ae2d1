package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Agent events under OIDC (issue 12 item 1): bound to the caller who produced them, shown only to callers allowed
 * the event's project, with the retrieved paths a viewer may not read removed.
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
    void aViewerAllowedTheProjectSeesTheEventWithoutThePathsTheyMayNotRead() throws Exception {
        String session = "mixed-" + UUID.randomUUID();
        HttpResponse<String> posted = post(charlie(), "/memory/agents/events", """
                {"agent_id":"fixer","session_id":"%s","type":"memory_retrieved","payload":{"project":"poimen",
                 "query":"pods","chunks":[
                   {"path":"projects/poimen/tools/kubectl.md","heading":"kubectl basics","score":0.9},
                   {"path":"shared/skills/SKILL-private-debug/SKILL.md","heading":"Private heading","score":0.8},
                   {"path":"projects/ml-training/runbooks/gpu-node.md","heading":"GPU heading","score":0.7}],
                 "scores":[0.9,0.8,0.7],"note":"see projects/ml-training/runbooks/gpu-node.md"}}"""
                .formatted(session));
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(201);

        JsonNode seen = JSON.readTree(get(dave(), "/memory/agents/logs?session_id=" + session).body())
                .path("events");
        assertThat(seen).hasSize(1);
        JsonNode payload = seen.get(0).path("payload");
        assertThat(payload.path("chunks").findValuesAsText("path")).containsExactly("projects/poimen/tools/kubectl.md");
        assertThat(payload.path("scores").toString()).isEqualTo("[0.9]");
        assertThat(seen.toString()).doesNotContain("Private heading", "GPU heading", "ml-training",
                "SKILL-private-debug");

        // a caller not allowed poimen sees none of it, nor may post into it
        HttpResponse<String> foreign = post(nobody(), "/memory/agents/events", """
                {"agent_id":"noise","type":"agent_decision","payload":{"project":"poimen"}}""");
        assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
        assertThat(JSON.readTree(get(nobody(), "/memory/agents/logs?session_id=" + session).body())
                .path("events")).isEmpty();
    }
}
