package io.poimen.memory.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
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

    SyncToolSpecification tool(String name, String description, String schema,
                               BiFunction<McpTransportContext, McpSchema.CallToolRequest,
                                       McpSchema.CallToolResult> handler) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(mcpJson, schema).build())
                .callHandler(handler)
                .build();
    }

    static Map<String, Object> args(McpSchema.CallToolRequest request) {
        return request.arguments() != null ? request.arguments() : Map.of();
    }

    static McpSchema.CallToolResult ok(JsonNode result) {
        return McpSchema.CallToolResult.builder().addTextContent(result.toString())
                .structuredContent(JSON.convertValue(result, Map.class)).isError(false).build();
    }

    static McpSchema.CallToolResult error(HubCalls.Answer answer, String prefix) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(prefix + "HTTP " + answer.status() + ": " + answer.json()).isError(true).build();
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
