package io.poimen.memory.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP tools that browse the vault by time and folder: {@code recent_activity} ({@code direct:vault-recent})
 * and {@code list_directory} ({@code direct:vault-directory}), the routes of {@code GET /memory/vault/recent} and
 * {@code /memory/vault/directory}, called as the MCP request's caller ({@link HubCalls}).
 */
public class BrowseTools extends HubTools {

    public BrowseTools(HubCalls hub, McpJsonMapper mcpJson) {
        super(hub, mcpJson);
    }

    @Override
    public List<SyncToolSpecification> specifications() {
        return List.of(
                tool("recent_activity", "Notes changed within a timeframe, newest first, with their count: in one "
                        + "project's search scope, or in the whole vault without a project. Only notes you may read.",
                        """
                        {"type":"object","properties":{
                          "project":{"type":"string","description":"project name, e.g. poimen; omit for the whole vault"},
                          "timeframe":{"type":"string","description":"7d, 12h, 2 weeks, last week, yesterday, today or an ISO date (default 7d)"},
                          "limit":{"type":"integer","minimum":1,"maximum":500,"description":"notes at most, default 50"}}}""",
                        this::recentActivity),
                tool("list_directory", "One folder of the vault: its sub-folders with how many notes each holds, "
                        + "its own notes, and the count under it. Only notes you may read are listed or counted.",
                        """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"folder, e.g. projects/poimen/runbooks; omit for the vault root"}}}""",
                        this::listDirectory));
    }

    McpSchema.CallToolResult recentActivity(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> headers = new LinkedHashMap<>();
        for (String name : List.of("project", "timeframe", "limit")) {
            if (args.get(name) != null) {
                headers.put(name, String.valueOf(args.get(name)));
            }
        }
        HubCalls.Answer answer = hub.call("direct:vault-recent", context, null, headers);
        return answer.ok() ? ok(read(answer.json())) : error(answer, "");
    }

    McpSchema.CallToolResult listDirectory(McpTransportContext context, McpSchema.CallToolRequest request) {
        Object path = args(request).get("path");
        Map<String, Object> headers = path == null ? Map.of() : Map.of("path", path.toString());
        HubCalls.Answer answer = hub.call("direct:vault-directory", context, null, headers);
        return answer.ok() ? ok(read(answer.json())) : error(answer, "");
    }
}
