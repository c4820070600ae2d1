package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/** The read API, the agent stream and the MCP tools with a caller that comes from the bearer token. */
@Import(TokenAccess.Config.class)
class TokenAccessTest extends HubWebTestBase {
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();
    @Autowired TokenAccess access;

    HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base() + path));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readEndpointsAnswer401WithoutAToken() throws Exception {
        for (String path : new String[] {"/memory/projects", "/memory/skills", "/memory/vault?project=poimen",
                "/memory/vault/file?path=projects/poimen/index.md", "/memory/graph/reachable?project=poimen",
                "/memory/graph/backlinks?path=projects/poimen/index.md", "/memory/agents/logs",
                "/memory/agents/stream"}) {
            HttpResponse<String> r = get(path, null);
            assertThat(r.statusCode()).as(path).isEqualTo(401);
            assertThat(json.readTree(r.body()).get("error").asText()).as(path).isEqualTo("unauthorized");
        }
    }

    @Test
    void aProjectTheCallerMayNotReadIs403AndLeftOutOfListings() throws Exception {
        assertThat(get("/memory/vault?project=rust-guide", "ops").statusCode()).isEqualTo(403);
        assertThat(get("/memory/vault/file?path=projects/rust-guide/index.md", "ops").statusCode()).isEqualTo(403);
        assertThat(get("/memory/graph/reachable?project=rust-guide", "ops").statusCode()).isEqualTo(403);
        assertThat(get("/memory/projects", "ops").body()).doesNotContain("rust-guide").contains("poimen");
        assertThat(get("/memory/vault", "ops").body()).doesNotContain("projects/rust-guide/");
        assertThat(get("/memory/vault?project=rust-guide", "rust").statusCode()).isEqualTo(200);
        assertThat(get("/memory/projects", "rust").body()).contains("rust-guide");
        assertThat(access.decisions).contains("deny ops projects/rust-guide/index.md",
                "allow rust projects/rust-guide/");
    }

    @Test
    void mcpToolsActAsTheCallerOfTheBearerToken() throws Exception {
        try (McpSyncClient ops = McpClients.connect(base(), "ops");
             McpSyncClient rust = McpClients.connect(base(), "rust")) {
            McpSchema.CallToolRequest read = new McpSchema.CallToolRequest("read_note",
                    Map.of("path", "projects/rust-guide/memories/ownership.md"));
            McpSchema.CallToolResult denied = ops.callTool(read);
            assertThat(denied.isError()).isTrue();
            assertThat(McpClients.text(denied)).contains("403");
            McpSchema.CallToolResult allowed = rust.callTool(read);
            assertThat(allowed.isError()).isFalse();
            assertThat(McpClients.text(allowed)).contains("ownership");
            assertThat(McpClients.text(ops.callTool(new McpSchema.CallToolRequest("list_skills", Map.of()))))
                    .contains("SKILL-testing");
        }
        assertThat(access.seenTokens).contains("ops", "rust");
    }
}
