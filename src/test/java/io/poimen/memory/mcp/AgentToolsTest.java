package io.poimen.memory.mcp;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.grc.GrcTestSupport;
import io.poimen.memory.web.HubWebTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.Test;

/** The MCP tools beyond reading, on the embedded default (the local operator may read and write everything). */
class AgentToolsTest extends HubWebTestBase {
    static final String NOTE = "projects/poimen/debugging/pod-crashes.md";
    final ObjectMapper json = new ObjectMapper();

    JsonNode call(McpSyncClient client, String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.isError()).as(McpClients.text(r)).isFalse();
        return json.readTree(McpClients.text(r));
    }

    @Test
    void buildContextIsTheNoteAndItsLinkedNotesRankedAndCutToTheBudget() throws Exception {
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            JsonNode wide = call(client, "build_context", Map.of("path", NOTE, "budget_tokens", 100000));
            List<String> paths = new ArrayList<>();
            wide.path("notes").forEach(n -> paths.add(n.path("path").asText()));
            assertThat(paths.get(0)).isEqualTo(NOTE);
            assertThat(wide.path("notes").get(0).path("hops").asInt()).isZero();
            assertThat(paths).contains("projects/poimen/tools/kubectl.md").hasSizeGreaterThan(2);
            wide.path("notes").forEach(n -> assertThat(n.path("hops").asInt()).isLessThanOrEqualTo(1));
            assertThat(wide.path("left_out")).isEmpty();

            JsonNode small = call(client, "build_context", Map.of("path", NOTE, "budget_tokens", 300));
            assertThat(small.path("tokens_used").asInt()).isPositive().isLessThanOrEqualTo(300);
            int sum = 0;
            for (JsonNode n : small.path("notes")) {
                for (JsonNode c : n.path("chunks")) {
                    sum += c.path("tokens").asInt();
                }
            }
            assertThat(sum).isEqualTo(small.path("tokens_used").asInt());
            assertThat(small.path("left_out")).isNotEmpty();
            assertThat(small.path("notes").get(0).path("path").asText()).isEqualTo(NOTE);

            McpSchema.CallToolResult missing = client.callTool(new McpSchema.CallToolRequest("build_context",
                    Map.of("path", "projects/poimen/nothing-here.md")));
            assertThat(missing.isError()).isTrue();
            assertThat(McpClients.text(missing)).contains("404");
            McpSchema.CallToolResult badBudget = client.callTool(new McpSchema.CallToolRequest("build_context",
                    Map.of("path", NOTE, "budget_tokens", 0)));
            assertThat(McpClients.text(badBudget)).contains("422", "budget_tokens");
        }
    }

    @Test
    void recentChangesReadsTheVaultHistory() throws Exception {
        String head;
        try (Git git = Git.open(REMOTE.toFile())) {
            Repository repo = git.getRepository();
            head = repo.resolve("refs/heads/main").getName();
        }
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            JsonNode all = call(client, "recent_changes", Map.of("since", "2000-01-01T00:00:00Z", "limit", 500));
            assertThat(all.path("head").asText()).isEqualTo(head);
            List<String> paths = new ArrayList<>();
            all.path("changes").forEach(c -> paths.add(c.path("path").asText()));
            assertThat(paths).contains(NOTE, "shared/concepts/gitops.md").allMatch(p -> p.endsWith(".md"));
            assertThat(all.path("changes").get(0).path("change").asText()).isEqualTo("added");
            assertThat(all.path("changes").get(0).path("commit").asText()).isEqualTo(head);

            JsonNode limited = call(client, "recent_changes", Map.of("since", "2000-01-01", "limit", 3));
            assertThat(limited.path("changes")).hasSize(3);
            assertThat(call(client, "recent_changes", Map.of("since", head)).path("changes")).isEmpty();

            McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("recent_changes",
                    Map.of("since", "last tuesday")));
            assertThat(bad.isError()).isTrue();
            assertThat(McpClients.text(bad)).contains("400", "ISO-8601");
            McpSchema.CallToolResult unknown = client.callTool(new McpSchema.CallToolRequest("recent_changes",
                    Map.of("since", "0123456789abcdef0123456789abcdef01234567")));
            assertThat(McpClients.text(unknown)).contains("404", "no such commit");
        }
    }

    @Test
    void proposeEditOpensAPullRequestAndDraftStatusFollowsIt() throws Exception {
        FORGEJO.resetAll();
        GrcTestSupport.pullRequestsOpenAs(FORGEJO, 41);
        FORGEJO.stubFor(get(urlPathEqualTo(GrcTestSupport.PULLS + "/41")).willReturn(okJson(
                "{\"id\":141,\"number\":41,\"state\":\"open\",\"merged\":false,"
                        + "\"html_url\":\"http://forgejo.test/team/vault/pulls/41\",\"head\":{\"ref\":\"x\"}}")));
        FORGEJO.stubFor(get(urlPathEqualTo(GrcTestSupport.PULLS + "/41/reviews")).willReturn(okJson("[]")));
        String before = java.nio.file.Files.readString(GIT_ROOT.resolve("vault").resolve(NOTE));
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            JsonNode proposed = call(client, "propose_edit", Map.of("path", NOTE,
                    "content", before + "\n## Sidecars\n\nA crashing sidecar restarts the whole pod.\n",
                    "message", "Note on crashing sidecars"));
            assertThat(proposed.path("draft_id").asText()).isNotBlank();
            assertThat(proposed.path("pr_url").asText()).isEqualTo("http://forgejo.test/team/vault/pulls/41");
            assertThat(proposed.path("status").asText()).isEqualTo("open");

            JsonNode status = call(client, "draft_status", Map.of("draft_id", proposed.path("draft_id").asText()));
            assertThat(status.path("status").asText()).isEqualTo("open");
            assertThat(status.path("pr_number").asInt()).isEqualTo(41);
            assertThat(status.path("pr_state").asText()).isEqualTo("open");
            assertThat(status.path("document_path").asText()).isEqualTo(NOTE);

            McpSchema.CallToolResult outside = client.callTool(new McpSchema.CallToolRequest("propose_edit",
                    Map.of("path", "../escape.md", "content", "x", "message", "m")));
            assertThat(outside.isError()).isTrue();
            assertThat(McpClients.text(outside)).contains("no draft was made", "400");
            McpSchema.CallToolResult none = client.callTool(new McpSchema.CallToolRequest("draft_status",
                    Map.of("draft_id", "no-such-draft")));
            assertThat(McpClients.text(none)).contains("404");
        }
        assertThat(java.nio.file.Files.readString(GIT_ROOT.resolve("vault").resolve(NOTE)))
                .as("nothing reaches the vault before review").isEqualTo(before);
    }
}
