package io.poimen.memory.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.web.HubWebTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The MCP endpoint through the SDK's client, as the local operator of the embedded default. */
class McpServerTest extends HubWebTestBase {
    final ObjectMapper json = new ObjectMapper();

    @Test
    void listsTheToolsWithInputSchemas() {
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools).extracting(McpSchema.Tool::name)
                    .containsExactlyInAnyOrder("search_memory", "read_note", "list_skills", "write_note",
                            "edit_note", "move_note", "delete_note", "propose_edit", "draft_status", "list_drafts",
                            "review_draft", "build_context", "recent_changes", "recent_activity", "list_directory");
            McpSchema.Tool search = tools.stream().filter(t -> t.name().equals("search_memory")).findFirst().orElseThrow();
            assertThat(search.inputSchema().required()).containsExactlyInAnyOrder("project", "query");
            assertThat(search.inputSchema().properties()).containsKeys("project", "query", "top_k");
        }
    }

    @Test
    void searchMemoryAnswersFromTheQueryRoute() throws Exception {
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("search_memory",
                    Map.of("project", "poimen", "query", "pod keeps restarting with CrashLoopBackOff", "top_k", 3)));
            assertThat(result.isError()).isFalse();
            JsonNode body = json.readTree(McpClients.text(result));
            assertThat(body.get("project").asText()).isEqualTo("poimen");
            List<String> paths = new ArrayList<>();
            body.get("results").forEach(r -> paths.add(r.get("path").asText()));
            assertThat(paths).isNotEmpty().hasSizeLessThanOrEqualTo(3)
                    .allMatch(p -> p.startsWith("projects/poimen/") || p.startsWith("shared/"))
                    .contains("projects/poimen/debugging/pod-crashes.md");
            assertThat(body.get("results").get(0).get("text").asText()).isNotBlank();
        }
    }

    @Test
    void searchMemoryReportsBadArgumentsAsToolErrors() {
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            McpSchema.CallToolResult unknown = client.callTool(new McpSchema.CallToolRequest("search_memory",
                    Map.of("project", "atlantis", "query", "anything at all here")));
            assertThat(unknown.isError()).isTrue();
            assertThat(McpClients.text(unknown)).contains("404", "unknown project");
            McpSchema.CallToolResult noQuery = client.callTool(new McpSchema.CallToolRequest("search_memory",
                    Map.of("project", "poimen")));
            assertThat(noQuery.isError()).isTrue();
            assertThat(McpClients.text(noQuery)).contains("400", "query is required");
        }
    }

    @Test
    void readNoteAndListSkillsUseTheReadApi() throws Exception {
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            McpSchema.CallToolResult note = client.callTool(new McpSchema.CallToolRequest("read_note",
                    Map.of("path", "projects/poimen/tools/kubectl.md")));
            assertThat(note.isError()).isFalse();
            JsonNode body = json.readTree(McpClients.text(note));
            assertThat(body.get("title").asText()).isEqualTo("kubectl debugging commands");
            assertThat(body.get("content").asText()).contains("kubectl logs");
            McpSchema.CallToolResult escape = client.callTool(new McpSchema.CallToolRequest("read_note",
                    Map.of("path", "../pom.xml")));
            assertThat(escape.isError()).isTrue();
            assertThat(McpClients.text(escape)).contains("400", "bad_path");
            McpSchema.CallToolResult skills = client.callTool(new McpSchema.CallToolRequest("list_skills", Map.of()));
            assertThat(McpClients.text(skills)).contains("SKILL-kubernetes-debugging");
        }
    }

    @Test
    void otherMethodsOnTheEndpointAreA405JsonAnswerWithAllow() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        for (String method : List.of("PUT", "PATCH", "OPTIONS")) {
            java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(base() + "/mcp")).header("Content-Type", "application/json")
                    .method(method, java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(method).isEqualTo(405);
            assertThat(r.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
            assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
            assertThat(json.readTree(r.body()).path("error").asText()).isEqualTo("method_not_allowed");
        }
    }
}
