package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;

/**
 * The vault history on the embedded default: the vault folder is the hub's own git repository, so MCP
 * {@code recent_changes} answers its log (503 "not a git working copy" before), and a malformed {@code since} is
 * the caller's 400 whatever the vault.
 */
class DefaultVaultHistoryTest extends LocalReviewTestSupport {
    static final String NOTE = "projects/rust-guide/tools/cargo.md";

    @Test
    void recentChangesIsTheVaultRepositoryLogAndAMalformedSinceIsA400() throws Exception {
        String head;
        try (Git git = Git.open(vault().toFile())) {
            head = git.getRepository().resolve("refs/heads/main").getName();
        }
        try (McpSyncClient client = McpClients.connect("http://127.0.0.1:" + port, null)) {
            McpSchema.CallToolResult all = client.callTool(new McpSchema.CallToolRequest("recent_changes",
                    Map.of("since", "2000-01-01T00:00:00Z", "limit", 500)));
            assertThat(all.isError()).as(McpClients.text(all)).isFalse();
            JsonNode changes = JSON.readTree(McpClients.text(all));
            assertThat(changes.path("head").asText()).isEqualTo(head);
            assertThat(changes.path("changes").findValuesAsText("path")).contains(NOTE);

            McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("recent_changes",
                    Map.of("since", "last tuesday")));
            assertThat(bad.isError()).isTrue();
            assertThat(McpClients.text(bad)).contains("400", "ISO-8601");
        }
    }
}
