package io.poimen.memory.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An MCP session belongs to the caller who opened it (security issue, item 3), over HTTP in oidc mode: another
 * bearer naming its id in a POST, GET or DELETE gets exactly the answer of an id that never existed, and the
 * session keeps working for its owner; the session id, which becomes the {@code session_id} of the owner's
 * {@code memory_retrieved} events, is shown to nobody else in the agent log.
 */
class McpSessionOwnerOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ACCEPT = "application/json, text/event-stream";

    HttpResponse<String> mcp(String method, String token, String session, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(uri("/mcp")).header("Authorization", "Bearer " + token)
                .header("Accept", method.equals("GET") ? "text/event-stream" : ACCEPT);
        if (session != null) {
            r.header("Mcp-Session-Id", session);
        }
        if (body != null) {
            r.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            r.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    String open(String token, String client) throws Exception {
        HttpResponse<String> init = mcp("POST", token, null, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",
                 "capabilities":{},"clientInfo":{"name":"%s","version":"1"}}}""".formatted(client));
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(mcp("POST", token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .statusCode()).isEqualTo(202);
        return session;
    }

    static String toolsList(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}";
    }

    /** The answer with the session id in it replaced, so answers for two ids compare. */
    static String masked(HttpResponse<String> r, String session) {
        return r.statusCode() + " " + r.headers().firstValue("Content-Type").orElse("") + " "
                + r.body().replace(session, "SESSION").replaceAll("\"(timestamp|trace_id)\"\\s*:\\s*\"[^\"]*\"", "");
    }

    @Test
    void anotherBearerCannotUseDeleteOrTellApartTheOwnersSessionAndTheOwnerKeepsIt() throws Exception {
        String session = open(charlie(), "owner-agent");
        assertThat(mcp("POST", charlie(), session, toolsList(2)).body()).contains("search_memory");

        for (String other : List.of(dave(), nobody(), token("charlie-lookalike", List.of("platform-team"),
                List.of("admin")))) {
            String unknown = UUID.randomUUID().toString();
            for (String method : List.of("POST", "GET", "DELETE")) {
                String body = method.equals("POST") ? toolsList(3) : null;
                HttpResponse<String> foreign = mcp(method, other, session, body);
                HttpResponse<String> missing = mcp(method, other, unknown, body);
                assertThat(foreign.statusCode()).as(method + " " + foreign.body()).isEqualTo(404);
                assertThat(masked(foreign, session)).as(method).isEqualTo(masked(missing, unknown));
                assertThat(foreign.body()).doesNotContain("search_memory", "charlie", "owner-agent");
            }
        }

        // the owner's session survived the foreign DELETEs and still answers tools
        HttpResponse<String> search = mcp("POST", charlie(), session, """
                {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_memory",
                 "arguments":{"project":"poimen","query":"kubectl pods crash"}}}""");
        assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
        assertThat(search.body()).contains("projects/poimen/");

        // the search's memory_retrieved event carries the session for its owner only
        JsonNode own = JSON.readTree(get(charlie(), "/memory/agents/logs?session_id=" + session).body())
                .path("events");
        assertThat(own).hasSize(1);
        assertThat(own.get(0).path("session_id").asText()).isEqualTo(session);
        JsonNode seen = JSON.readTree(get(dave(), "/memory/agents/logs?agent_id=charlie/owner-agent&limit=1000")
                .body()).path("events");
        assertThat(seen).as("dave may read every result of charlie's search").hasSize(1);
        assertThat(seen.get(0).path("payload").path("query").asText()).isEqualTo("kubectl pods crash");
        assertThat(seen.get(0).has("session_id")).as(seen.toString()).isFalse();
        for (String other : List.of(dave(), nobody())) {
            assertThat(get(other, "/memory/agents/logs?limit=1000").body()).doesNotContain(session);
            assertThat(JSON.readTree(get(other, "/memory/agents/logs?session_id=" + session).body())
                    .path("events")).isEmpty();
        }

        // the owner ends it; then it is gone for the owner too
        assertThat(mcp("DELETE", charlie(), session, null).statusCode()).isEqualTo(200);
        assertThat(mcp("POST", charlie(), session, toolsList(5)).statusCode()).isEqualTo(404);
    }
}
