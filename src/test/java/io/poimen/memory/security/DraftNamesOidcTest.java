package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Note names of drafts in oidc mode (security test, item 11c): an editor's draft of a {@code .GIT} folder, a name with
 * a zero-width or bidirectional control character or with look-alike scripts mixed is a 400 JSON answer naming the
 * character class, over REST and through the MCP {@code propose_edit} tool; a name in one non-Latin script passes the
 * checks and becomes a draft (this hub has no Forgejo: it is reviewed on the hub).
 */
class DraftNamesOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();

    static String draft(String path) throws Exception {
        return JSON.writeValueAsString(Map.of("document_path", path, "content", "# x\n", "message", "m"));
    }

    @Test
    void unsafeNamesAreRefusedNamingTheCharacterClassOverRestAndMcp() throws Exception {
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("projects/ml-training/.GIT/config.md", "'.git' folder");
        refused.put("projects/ml-training/runbooks/gpu\u200Dnode.md", "invisible (zero-width or format) character");
        refused.put("projects/ml-training/report\u202Efdp.md", "bidirectional control character");
        refused.put("projects/ml-training/tr\u0430ining.md", "scripts that look alike (Latin and Cyrillic)");
        try (McpSyncClient client = McpClients.connect("http://127.0.0.1:" + port, bob())) {
            for (Map.Entry<String, String> r : refused.entrySet()) {
                HttpResponse<String> rest = post(bob(), "/memory/grc/draft", draft(r.getKey()));
                assertThat(rest.statusCode()).as(r.getKey() + ": " + rest.body()).isEqualTo(400);
                JsonNode body = JSON.readTree(rest.body());
                assertThat(body.path("error").asText()).isEqualTo("bad_request");
                assertThat(body.path("reason").asText()).isEqualTo("unsafe_name");
                assertThat(body.path("message").asText()).as(r.getKey()).contains(r.getValue());

                McpSchema.CallToolResult tool = client.callTool(new McpSchema.CallToolRequest("propose_edit",
                        Map.of("path", r.getKey(), "content", "# x\n", "message", "m")));
                assertThat(tool.isError()).as(r.getKey()).isTrue();
                assertThat(McpClients.text(tool)).as(r.getKey()).contains("400", r.getValue());
            }
        }
        for (String ok : new String[] {"projects/ml-training/議事録.md", "projects/ml-training/ملاحظات.md"}) {
            HttpResponse<String> rest = post(bob(), "/memory/grc/draft", draft(ok));
            assertThat(rest.statusCode()).as(ok + ": " + rest.body()).isEqualTo(201);
            assertThat(JSON.readTree(rest.body()).path("status").asText()).isEqualTo("open");
            assertThat(JSON.readTree(rest.body()).path("paths").get(0).asText()).isEqualTo(ok);
        }
    }
}
