package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.grc.GrcTestSupport;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.HostileRequests;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Note names of drafts over HTTP and MCP on the embedded hub (security test, item 11c): a {@code .git} folder in any
 * spelling, invisible and bidirectional control characters and look-alike scripts mixed in one name are refused at
 * submission (400 JSON naming the character class; the MCP {@code propose_edit} tool the same), nothing stored; names
 * in one non-Latin script (or Latin with Japanese) go through review like any other.
 */
class DraftNamesHttpTest extends HubWebTestBase {
    static final Map<String, String> REFUSED = new LinkedHashMap<>();

    static {
        REFUSED.put("projects/poimen/.GIT/hooks.md", "'.git' folder");
        REFUSED.put("projects/poimen/runbooks/.gIt/deep/x.md", "'.git' folder");
        REFUSED.put("projects/poimen/pay\u200Bpal.md", "invisible (zero-width or format) character (U+200B)");
        REFUSED.put("projects/poimen/invoice\u202Egnp.md", "bidirectional control character");
        REFUSED.put("projects/poimen/p\u0430ypal.md", "scripts that look alike (Latin and Cyrillic)");
    }

    @Autowired JdbcTemplate jdbc;

    long drafts() {
        Long n = jdbc.queryForObject("select count(*) from grc_drafts", Long.class);
        return n == null ? 0 : n;
    }

    /** A number to keep names apart (digits: Latin letters next to Cyrillic would be a mixed-script name). */
    static String number() {
        return Long.toString(System.nanoTime() % 1_000_000_007L);
    }

    static String draft(String path) throws Exception {
        return JSON.writeValueAsString(Map.of("document_path", path, "content", "# " + UUID.randomUUID() + "\n",
                "message", "A note"));
    }

    @Test
    void unsafeNamesAreRefusedOverRestAndMcpAndNothingIsStored() throws Exception {
        long before = drafts();
        for (Map.Entry<String, String> r : REFUSED.entrySet()) {
            HostileRequests.Answer a = post("/memory/grc/draft", "application/json", draft(r.getKey()));
            JsonNode body = error(a, 400);
            assertThat(body.path("reason").asText()).as(r.getKey()).isEqualTo("unsafe_name");
            assertThat(body.path("message").asText()).as(r.getKey()).contains(r.getValue());
        }
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            for (Map.Entry<String, String> r : REFUSED.entrySet()) {
                McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("propose_edit",
                        Map.of("path", r.getKey(), "content", "# x\n", "message", "m")));
                assertThat(result.isError()).as(r.getKey()).isTrue();
                assertThat(McpClients.text(result)).as(r.getKey()).contains("no draft was made", "400", r.getValue());
            }
        }
        assertThat(drafts()).as("no draft stored").isEqualTo(before);
    }

    @Test
    void namesInOneNonLatinScriptGoThroughReview() throws Exception {
        FORGEJO.resetAll();
        GrcTestSupport.pullRequestsOpenAs(FORGEJO, 61);
        long before = drafts();
        for (String path : new String[] {"projects/poimen/議事録 " + number() + ".md",
                "projects/poimen/ملاحظات-" + number() + ".md"}) {
            HostileRequests.Answer a = post("/memory/grc/draft", "application/json", draft(path));
            assertThat(a.status()).as(path + ": " + a.text()).isEqualTo(201);
            assertThat(JSON.readTree(a.body()).path("pr_number").asInt()).isEqualTo(61);
        }
        try (McpSyncClient client = McpClients.connect(base(), null)) {
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("propose_edit",
                    Map.of("path", "projects/poimen/заметки-" + number() + ".md",
                            "content", "# Заметки\n", "message", "Заметки")));
            assertThat(result.isError()).as(McpClients.text(result)).isFalse();
            assertThat(JSON.readTree(McpClients.text(result)).path("status").asText()).isEqualTo("open");
        }
        assertThat(drafts()).isEqualTo(before + 3);
    }
}
