package io.poimen.memory.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.testsupport.OidcHubTestBase;
import io.poimen.memory.vault.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectInserter;
import org.junit.jupiter.api.Test;

/**
 * What an agent pays for an MCP answer, with OIDC on and the SDK's own client: {@code search_memory} answers lean
 * (text, path, heading, score, the note's version, the context) unless asked to {@code explain}; every tool
 * carries its hints; bad arguments are tool errors with a one-line reason. REST keeps the breakdown by default.
 */
class McpLeanAnswersOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String QUERY = "pod keeps restarting with CrashLoopBackOff after a deploy";

    String base() {
        return "http://127.0.0.1:" + port;
    }

    /** Each answer from a fresh session, so no session context carries chunks from one call to the other. */
    McpSchema.CallToolResult search(Map<String, Object> args) {
        try (McpSyncClient client = McpClients.connect(base(), charlie())) {
            return client.callTool(new McpSchema.CallToolRequest("search_memory", args));
        }
    }

    /** The bytes of the whole tool result as it travels in the JSON-RPC answer (content and structured content). */
    static int bytes(McpSchema.CallToolResult r) throws Exception {
        return JSON.writeValueAsString(r).getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * The answer search_memory gave before lean answers, rebuilt from the explained one: project, strategy,
     * degraded, and per result path, heading, score, text and the breakdown's reason, as JSON text with the same
     * JSON as structured content (checked against the code before the change: 16,288 bytes for this query).
     */
    static McpSchema.CallToolResult beforeShape(JsonNode explained) {
        ObjectNode out = JSON.createObjectNode();
        out.set("project", explained.get("project"));
        out.set("strategy", explained.get("strategy"));
        out.set("degraded", explained.get("degraded"));
        ArrayNode results = out.putArray("results");
        for (JsonNode r : explained.path("results")) {
            ObjectNode item = results.addObject();
            for (String field : List.of("path", "heading", "score", "text")) {
                item.set(field, r.get(field));
            }
            item.set("reason", r.path("breakdown").get("reason"));
        }
        return McpSchema.CallToolResult.builder().addTextContent(out.toString())
                .structuredContent(JSON.convertValue(out, Map.class)).isError(false).build();
    }

    static List<String> chunks(JsonNode answer) {
        List<String> out = new ArrayList<>();
        answer.path("results").forEach(r -> out.add(r.path("path").asText() + " | " + r.path("heading").asText()
                + " | " + r.path("text").asText()));
        return out;
    }

    @Test
    void leanSearchAnswerIsAtMostFortyPercentOfTheExplainedOneWithTheSameChunks() throws Exception {
        Map<String, Object> args = new LinkedHashMap<>(Map.of("project", "poimen", "query", QUERY, "top_k", 10));
        McpSchema.CallToolResult lean = search(args);
        args.put("explain", true);
        McpSchema.CallToolResult explained = search(args);
        assertThat(lean.isError()).as(McpClients.text(lean)).isFalse();
        assertThat(explained.isError()).as(McpClients.text(explained)).isFalse();
        JsonNode leanBody = JSON.readTree(McpClients.text(lean));
        JsonNode explainedBody = JSON.readTree(McpClients.text(explained));

        assertThat(leanBody.path("results")).hasSize(10);
        assertThat(chunks(leanBody)).as("the same chunks in the same order").isEqualTo(chunks(explainedBody));

        TokenCounter tokens = new TokenCounter();
        McpSchema.CallToolResult before = beforeShape(explainedBody);
        int leanBytes = bytes(lean);
        int beforeBytes = bytes(before);
        System.out.printf("search_memory, 10 results: lean %d bytes, %d tokens; before (reason per result, JSON "
                        + "text and structured copy) %d bytes, %d tokens; explain %d bytes, %d tokens; lean/before "
                        + "bytes %.3f%n", leanBytes, tokens.count(McpClients.text(lean)), beforeBytes,
                tokens.count(McpClients.text(before)), bytes(explained), tokens.count(McpClients.text(explained)),
                (double) leanBytes / beforeBytes);
        assertThat(leanBytes).isLessThanOrEqualTo(beforeBytes * 40 / 100);
        assertThat(leanBytes).isLessThanOrEqualTo(bytes(explained) * 40 / 100);

        for (JsonNode r : leanBody.path("results")) {
            assertThat(r.has("breakdown") || r.has("reason")).as("no score explanation in a lean answer").isFalse();
            assertThat(r.path("score").isNumber()).isTrue();
            byte[] file = Files.readAllBytes(VAULT.resolve(r.path("path").asText()));
            try (ObjectInserter.Formatter git = new ObjectInserter.Formatter()) {
                assertThat(r.path("version").asText()).as("git's blob id of the note")
                        .isEqualTo(git.idFor(Constants.OBJ_BLOB, file).name());
            }
        }
        JsonNode context = leanBody.path("context");
        assertThat(context.path("token_budget").asInt()).isEqualTo(2000);
        assertThat(context.path("tokens_used").asInt()).isPositive().isLessThanOrEqualTo(2000);
        assertThat(context.path("chunks")).isNotEmpty();
    }

    @Test
    void explainRestoresTheScoreBreakdown() throws Exception {
        JsonNode body = JSON.readTree(McpClients.text(search(Map.of("project", "poimen", "query", QUERY,
                "top_k", 5, "explain", true))));
        assertThat(body.path("results")).isNotEmpty();
        for (JsonNode r : body.path("results")) {
            JsonNode breakdown = r.path("breakdown");
            assertThat(breakdown.path("fusion").asText()).isNotBlank();
            assertThat(breakdown.path("branches").size()).isPositive();
            assertThat(breakdown.path("weights").size()).isPositive();
            assertThat(breakdown.path("reason").asText()).isNotBlank();
        }
        assertThat(body.path("strategy").asText()).isNotBlank();
    }

    @Test
    void restKeepsTheBreakdownByDefaultAndDropsItWithExplainFalse() throws Exception {
        JsonNode full = JSON.readTree(post(charlie(), "/memory/query",
                "{\"project\":\"poimen\",\"query\":\"" + QUERY + "\",\"top_k\":5}").body());
        JsonNode lean = JSON.readTree(post(charlie(), "/memory/query",
                "{\"project\":\"poimen\",\"query\":\"" + QUERY + "\",\"top_k\":5,\"explain\":false}").body());
        assertThat(full.path("results")).isNotEmpty();
        full.path("results").forEach(r -> assertThat(r.path("breakdown").path("reason").asText()).isNotBlank());
        assertThat(chunks(lean)).isEqualTo(chunks(full));
        lean.path("results").forEach(r -> assertThat(r.has("breakdown")).isFalse());
        assertThat(post(charlie(), "/memory/query", "{\"project\":\"poimen\",\"query\":\"x\",\"explain\":\"no\"}")
                .statusCode()).isEqualTo(400);
    }

    /** readOnly, destructive, idempotent, openWorld. */
    static final Map<String, List<Boolean>> HINTS = Map.of(
            "search_memory", List.of(true, false, true, false),
            "read_note", List.of(true, false, true, false),
            "list_skills", List.of(true, false, true, false),
            "build_context", List.of(true, false, true, false),
            "recent_changes", List.of(true, false, true, false),
            "draft_status", List.of(true, false, true, false),
            "propose_edit", List.of(false, false, false, false));

    @Test
    void everyToolCarriesItsHintsAndSaysWhenToUseIt() {
        try (McpSyncClient client = McpClients.connect(base(), charlie())) {
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools).isNotEmpty();
            assertThat(tools).extracting(McpSchema.Tool::name).containsAll(HINTS.keySet());
            for (McpSchema.Tool tool : tools) {
                McpSchema.ToolAnnotations a = tool.annotations();
                assertThat(a).as(tool.name()).isNotNull();
                List<Boolean> hints = List.of(a.readOnlyHint(), a.destructiveHint(), a.idempotentHint(),
                        a.openWorldHint());
                assertThat(hints).as(tool.name() + " states every hint").doesNotContainNull();
                if (HINTS.containsKey(tool.name())) {
                    assertThat(hints).as(tool.name()).isEqualTo(HINTS.get(tool.name()));
                }
                assertThat(a.title()).as(tool.name()).isNotBlank();
                assertThat(tool.description()).as(tool.name()).contains("Use ");
            }
        }
    }

    @Test
    void badArgumentsAreToolErrorsWithAOneLineReason() {
        try (McpSyncClient client = McpClients.connect(base(), charlie())) {
            Map<Map<String, Object>, String> cases = new LinkedHashMap<>();
            cases.put(Map.of("project", "poimen", "query", QUERY, "top_k", "ten"), "top_k must be a whole number");
            cases.put(Map.of("project", "poimen", "query", QUERY, "top_k", 0), "HTTP 422 unprocessable: top_k must be at least 1, got 0");
            cases.put(Map.of("project", "poimen", "query", QUERY, "explain", "yes"), "explain must be true or false");
            cases.put(Map.of("project", "poimen", "query", QUERY, "topk", 5), "HTTP 400 bad_request: unknown argument topk; this tool takes project, query, top_k, explain");
            cases.put(Map.of("project", "poimen"), "query is required");
            cases.put(Map.of("project", List.of("poimen"), "query", QUERY), "project must be a string");
            for (Map.Entry<Map<String, Object>, String> c : cases.entrySet()) {
                McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("search_memory",
                        c.getKey()));
                assertThat(r.isError()).as(c.getKey().toString()).isTrue();
                assertThat(McpClients.text(r)).as(c.getKey().toString()).contains(c.getValue()).doesNotContain("\n");
            }
            McpSchema.CallToolResult route = client.callTool(new McpSchema.CallToolRequest("read_note",
                    Map.of("path", "../pom.xml")));
            assertThat(route.isError()).isTrue();
            assertThat(McpClients.text(route)).as("a route's refusal, on one line")
                    .startsWith("HTTP 400 bad_path: ").doesNotContain("\n", "{");
        }
    }
}
