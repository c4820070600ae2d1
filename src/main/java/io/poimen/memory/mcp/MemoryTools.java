package io.poimen.memory.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP tools: {@code search_memory}, {@code read_note} and {@code list_skills}. Each sends to the same route the
 * HTTP API uses ({@code direct:query}, {@code direct:vault-file}, {@code direct:vault-skills}) as the caller of the
 * MCP request ({@link HubCalls}), so authentication, RBAC, audit and the {@code memory_retrieved} agent event all apply unchanged.
 */
public class MemoryTools extends HubTools {
    public MemoryTools(HubCalls hub, McpJsonMapper mcpJson) {
        super(hub, mcpJson);
    }

    @Override
    public List<SyncToolSpecification> specifications() {
        return List.of(
                tool("search_memory", "Search the team's memory vault in one project: hybrid TF-IDF, semantic and "
                        + "BM25 retrieval, fused and cut to a token budget. Returns chunks with path, heading, "
                        + "score and text.", """
                        {"type":"object","properties":{
                          "project":{"type":"string","description":"project name, e.g. poimen"},
                          "query":{"type":"string","description":"what to look for"},
                          "top_k":{"type":"integer","minimum":1,"maximum":100,"description":"results wanted (default 10)"}},
                         "required":["project","query"]}""", this::searchMemory),
                tool("read_note", "Read one note of the vault as markdown, with its outgoing wiki-links and backlinks.",
                        """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path, e.g. projects/poimen/tools/kubectl.md"}},
                         "required":["path"]}""", this::readNote),
                tool("list_skills", "List the shared skills (name, path, title) the caller may read.",
                        """
                        {"type":"object","properties":{}}""", this::listSkills));
    }

    McpSchema.CallToolResult searchMemory(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("project", args.get("project"));
        body.put("query", args.get("query"));
        if (args.get("top_k") != null) {
            body.put("top_k", args.get("top_k"));
        }
        // the MCP client and session become the agent and session of the memory_retrieved event, and the session
        // keys the retrieval session (its previous context, for prefix reuse)
        McpSessions.Session session = HubCalls.session(context);
        if (session != null && session.clientName() != null) {
            body.put("agent_id", session.clientName());
        }
        if (session != null) {
            body.put("session_id", session.id());
        }
        HubCalls.Answer answer = hub.call("direct:query", context, write(body), Map.of());
        if (!answer.ok()) {
            return error(answer, "");
        }
        JsonNode response = read(answer.json());
        ArrayNode results = JSON.createArrayNode();
        for (JsonNode r : response.path("results")) {
            ObjectNode item = results.addObject();
            item.set("path", r.get("path"));
            item.set("heading", r.get("heading"));
            item.set("score", r.get("score"));
            item.set("text", r.get("text"));
            item.set("reason", r.path("breakdown").get("reason"));
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("project", response.get("project"));
        out.set("strategy", response.get("strategy"));
        out.set("degraded", response.get("degraded"));
        out.set("results", results);
        return ok(out);
    }

    McpSchema.CallToolResult readNote(McpTransportContext context, McpSchema.CallToolRequest request) {
        Object path = args(request).get("path");
        Map<String, Object> headers = new LinkedHashMap<>();
        if (path != null) {
            headers.put("path", path.toString());
        }
        HubCalls.Answer answer = hub.call("direct:vault-file", context, null, headers);
        return answer.ok() ? ok(read(answer.json())) : error(answer, "");
    }

    McpSchema.CallToolResult listSkills(McpTransportContext context, McpSchema.CallToolRequest request) {
        HubCalls.Answer answer = hub.call("direct:vault-skills", context, null, Map.of());
        return answer.ok() ? ok(read(answer.json())) : error(answer, "");
    }
}
