package io.poimen.memory.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A set of MCP tools that answer through the hub's routes ({@link HubCalls}): what every tool shares, its
 * specification, its arguments, and its result built from a route's answer.
 */
abstract class HubTools {
    static final ObjectMapper JSON = new ObjectMapper();
    final HubCalls hub;
    private final McpJsonMapper mcpJson;

    HubTools(HubCalls hub, McpJsonMapper mcpJson) {
        this.hub = hub;
        this.mcpJson = mcpJson;
    }

    public abstract List<SyncToolSpecification> specifications();

    /**
     * A tool with its title, hints and when-to-use sentence from {@link ToolGuide}; arguments that do not fit
     * {@code schema} are answered with a one-line tool error before {@code handler} runs ({@link ToolArguments}).
     */
    SyncToolSpecification tool(String name, String description, String schema,
                               BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest,
                                       McpSchema.CallToolResult> handler) {
        ToolGuide.Entry guide = ToolGuide.of(name);
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).title(guide.title())
                .description(description + " " + guide.whenToUse()).inputSchema(mcpJson, schema)
                .annotations(guide.annotations()).build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) -> {
                    String refusal = ToolArguments.refusal(tool.inputSchema(), args(request));
                    return refusal == null ? handler.apply(exchange, request) : failure(refusal);
                })
                .build();
    }

    static Map<String, Object> args(McpSchema.CallToolRequest request) {
        return request.arguments() != null ? request.arguments() : Map.of();
    }

    static McpSchema.CallToolResult ok(JsonNode result) {
        return McpSchema.CallToolResult.builder().addTextContent(result.toString())
                .structuredContent(JSON.convertValue(result, Map.class)).isError(false).build();
    }

    /**
     * The answer once, as the JSON text models read, without the structured copy {@link #ok} adds: the tool declares
     * no output schema, so the copy is optional, and for a large answer it doubles the bytes.
     */
    static McpSchema.CallToolResult okText(JsonNode result) {
        return McpSchema.CallToolResult.builder().addTextContent(result.toString()).isError(false).build();
    }

    /** A route's refusal as one line: {@code HTTP 404 not_found: no such note: …}. */
    static McpSchema.CallToolResult error(HubCalls.Answer answer, String prefix) {
        return failure(prefix + "HTTP " + answer.status() + " " + reason(answer.json()));
    }

    static McpSchema.CallToolResult failure(String line) {
        return McpSchema.CallToolResult.builder().addTextContent(line).isError(true).build();
    }

    /** {@code error: message} of the hub's JSON error body; anything else as it came, on one line. */
    private static String reason(String body) {
        String reason = String.valueOf(body);
        try {
            JsonNode error = body == null ? null : JSON.readTree(body);
            if (error != null && error.path("error").isTextual()) {
                reason = error.path("error").asText() + ": " + error.path("message").asText();
            }
        } catch (JsonProcessingException e) {
            // not JSON: shown as it came
        }
        return reason.replaceAll("\\s+", " ").trim();
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("hub answered non-JSON: " + e.getOriginalMessage(), e);
        }
    }
}
