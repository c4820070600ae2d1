package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.security.auth.TraceIds;
import io.poimen.memory.testsupport.AgentStreamClient;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code GET /memory/agents/stream} over HTTP in oidc mode (issues 11 item 4 and 12 item 1; security issue item 5):
 * each bearer's stream shows their own events and another caller's only whole, when the project and every note the
 * event names are readable to them (never another's session id); a caller allowed nothing sees nothing; no bearer is a 401 JSON answer. The stream's read decisions are
 * audited under the stream response's {@code X-Trace-Id}.
 */
class AgentStreamOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();

    @Autowired JdbcTemplate jdbc;

    AgentStreamClient open(String token, String query) throws Exception {
        return new AgentStreamClient(HTTP, uri("/memory/agents/stream" + query), token);
    }

    @Test
    void eachBearerSeesOnlyEventsOfProjectsItMayReadWithoutDeniedPathsAndAnOutsiderSeesNone() throws Exception {
        String session = "sse-" + UUID.randomUUID();
        String bySession = "?session_id=" + session;
        String fixer = "fixer-" + UUID.randomUUID().toString().substring(0, 8);
        try (AgentStreamClient bob = open(bob(), bySession);
             AgentStreamClient dave = open(dave(), "?agent_id=charlie/" + fixer);
             AgentStreamClient nobody = open(nobody(), ""); AgentStreamClient nobodyBySession = open(nobody(), bySession)) {
            // 1. an ml-team agent retrieves the planted note
            HttpResponse<String> q = post(bob(), "/memory/query", """
                    {"project":"ml-training","query":"gpu node drains secret","agent_id":"trainer",
                     "session_id":"%s"}""".formatted(session));
            assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
            assertThat(q.body()).contains(PLANTED_PATH);
            // 2. a platform agent reports a result in poimen that also names notes only others may read
            HttpResponse<String> posted = post(charlie(), "/memory/agents/events", """
                    {"agent_id":"%s","session_id":"%s","type":"tool_result","payload":{"project":"poimen",
                     "chunks":[
                       {"path":"projects/poimen/tools/kubectl.md","heading":"kubectl basics","score":0.9},
                       {"path":"shared/skills/SKILL-private-debug/SKILL.md","heading":"Private heading","score":0.8},
                       {"path":"%s","heading":"%s","score":0.7}],
                     "scores":[0.9,0.8,0.7],"result":"read projects/ml-training/runbooks/gpu-node.md first"}}"""
                    .formatted(fixer, session, PLANTED_PATH, PLANTED_HEADING));
            assertThat(posted.statusCode()).as(posted.body()).isEqualTo(201);
            // 3. and one whose every note dave may read
            HttpResponse<String> readable = post(charlie(), "/memory/agents/events", """
                    {"agent_id":"%s","session_id":"%s","type":"tool_result","payload":{"project":"poimen",
                     "chunks":[{"path":"projects/poimen/tools/kubectl.md","heading":"kubectl basics","score":0.9}],
                     "scores":[0.9],"result":"read projects/poimen/tools/kubectl.md first"}}"""
                    .formatted(fixer, session));
            assertThat(readable.statusCode()).as(readable.body()).isEqualTo(201);
            // 4. the outsider's own event, last: published after the others to every subscriber, in order
            HttpResponse<String> own = post(nobody(), "/memory/agents/events", """
                    {"agent_id":"lonely","session_id":"%s","type":"agent_decision",
                     "payload":{"reasoning":"nothing to read"}}""".formatted(session));
            assertThat(own.statusCode()).as(own.body()).isEqualTo(201);

            bob.awaitEvent("memory_retrieved");
            dave.awaitEvent("tool_result");
            nobody.awaitEvent("agent_decision");
            nobodyBySession.awaitEvent("agent_decision");

            JsonNode bobs = bob.events().stream().filter(e -> e.path("type").asText().equals("memory_retrieved"))
                    .findFirst().orElseThrow();
            assertThat(bobs.path("agent_id").asText()).isEqualTo("bob/trainer");
            assertThat(bobs.path("session_id").asText()).isEqualTo(session);
            assertThat(bobs.path("payload").path("chunks").findValuesAsText("path")).contains(PLANTED_PATH);
            // bob (ml-team) may not read poimen: charlie's events are not his to see, nor the outsider's own
            assertThat(bob.text()).doesNotContain("charlie/", "Private heading", "kubectl basics", "nobody/lonely");

            // dave (devops) reads poimen, not ml-training nor the private skill: nothing of the event naming them,
            // the other whole but for charlie's session id; the event that arrived is the later one
            await().atMost(Duration.ofSeconds(20)).until(() -> dave.events().stream()
                    .anyMatch(e -> e.path("payload").path("result").asText().contains("kubectl.md")));
            assertThat(dave.events()).hasSize(1);
            JsonNode seen = dave.events().get(0);
            assertThat(seen.has("session_id")).isFalse();
            assertThat(seen.path("payload").path("chunks").findValuesAsText("path"))
                    .containsExactly("projects/poimen/tools/kubectl.md");
            assertThat(dave.text()).doesNotContain("ml-training", PLANTED_HEADING, PLANTED_TEXT, "Private heading",
                    "SKILL-private-debug", "gpu node drains", "bob/trainer", "nobody/lonely", "[path hidden]",
                    session);

            // no groups: only its own event, filtered or not
            for (AgentStreamClient outsider : List.of(nobody, nobodyBySession)) {
                assertThat(outsider.events()).extracting(e -> e.path("agent_id").asText())
                        .containsExactly("nobody/lonely");
                assertThat(outsider.text()).doesNotContain("projects/", PLANTED_HEADING, "kubectl", "gpu node",
                        "charlie/", "bob/trainer");
            }

            // the stream's read decisions are audited under the trace id its response carries
            for (AgentStreamClient s : List.of(dave, nobody)) {
                assertThat(s.traceId()).matches("[0-9a-f]{32}");
                assertThat(jdbc.queryForList("select decision from rbac_audit_log where trace_id = ?",
                        String.class, s.traceId())).as("audit rows of stream " + s.traceId()).isNotEmpty();
            }
            assertThat(jdbc.queryForList("select distinct decision from rbac_audit_log where trace_id = ?",
                    String.class, dave.traceId())).contains("allow", "deny");
            // and so are those of the log (the same view of the same events)
            long before = jdbc.queryForObject("select count(*) from rbac_audit_log", Long.class);
            HttpResponse<String> log = get(dave(), "/memory/agents/logs?agent_id=charlie/" + fixer);
            String trace = log.headers().firstValue(TraceIds.RESPONSE_HEADER).orElseThrow();
            assertThat(JSON.readTree(log.body()).path("events").findValuesAsText("path"))
                    .containsExactly("projects/poimen/tools/kubectl.md");
            assertThat(jdbc.queryForObject("select count(*) from rbac_audit_log where trace_id = ?", Long.class,
                    trace)).isPositive().isEqualTo(jdbc.queryForObject("select count(*) from rbac_audit_log",
                    Long.class) - before);
        }
    }

    @Test
    void withoutAValidBearerTheStreamIsA401JsonAnswer() throws Exception {
        for (String authorization : new String[] {null, "Bearer not-a-jwt", "Basic Ym9iOmJvYg=="}) {
            HttpRequest.Builder r = HttpRequest.newBuilder(uri("/memory/agents/stream"))
                    .header("Accept", "text/event-stream");
            if (authorization != null) {
                r.header("Authorization", authorization);
            }
            HttpResponse<String> answer = HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(String.valueOf(authorization)).isEqualTo(401);
            assertThat(answer.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
            assertThat(JSON.readTree(answer.body()).path("error").asText()).isEqualTo("unauthorized");
        }
    }
}
