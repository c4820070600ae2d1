package io.poimen.memory.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.vault.NoteVersion;
import io.poimen.memory.web.VaultFiles;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP tools: {@code search_memory}, {@code read_note} and {@code list_skills}. Each sends to the same route the
 * HTTP API uses ({@code direct:query}, {@code direct:vault-file}, {@code direct:vault-skills}) as the caller of the
 * MCP request ({@link HubCalls}), so authentication, RBAC, audit and the {@code memory_retrieved} agent event all apply unchanged.
 */
public class MemoryTools extends HubTools {
    /** How read_note and build_context name their note (retrieval.NoteLookup). */
    static final String NOTE_NAME = "a vault path (projects/poimen/tools/kubectl.md), a wiki-link name or alias as "
            + "in [[...]] (pod-crashes, Pod crash guide), or memory://<project>/<name>, memory://shared/<name>";
    private final VaultFiles files;

    public MemoryTools(HubCalls hub, McpJsonMapper mcpJson, VaultFiles files) {
        super(hub, mcpJson);
        this.files = files;
    }

    @Override
    public List<SyncToolSpecification> specifications() {
        return List.of(
                tool("search_memory", "Search the team's memory vault in one project: hybrid TF-IDF, semantic and "
                        + "BM25 retrieval, fused and cut to a token budget. Returns chunks with path, heading, "
                        + "score, the note's version and text, and the context (the chunks that fit the budget).",
                        """
                        {"type":"object","properties":{
                          "project":{"type":"string","description":"project name, e.g. poimen"},
                          "query":{"type":"string","description":"what to look for"},
                          "top_k":{"type":"integer","minimum":1,"maximum":100,"description":"results wanted (default 10)"},
                          "explain":{"type":"boolean","description":"true adds each chunk's score breakdown (default false)"},
                          "filters":{"type":"object","description":"only notes that match all of: tags (list, front matter or inline), path_prefix (folder), changed_after / changed_before (ISO date or 7d, last week), fields (front-matter field: value, [one of], or {eq, in, gt, gte, lt, lte, between})"}},
                         "required":["project","query"]}""", this::searchMemory),
                tool("read_note", "Read one note of the vault as markdown, with its outgoing wiki-links and backlinks. "
                        + "A name several notes have is an error listing their paths.",
                        """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"the note, as %s"}},
                         "required":["path"]}""".formatted(NOTE_NAME), this::readNote),
                tool("list_skills", "List the shared skills (name, path, title) the caller may read.",
                        """
                        {"type":"object","properties":{}}""", this::listSkills));
    }

    McpSchema.CallToolResult searchMemory(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        boolean explain = Boolean.TRUE.equals(args.get("explain"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("project", args.get("project"));
        body.put("query", args.get("query"));
        if (args.get("top_k") != null) {
            body.put("top_k", args.get("top_k"));
        }
        body.put("explain", explain);
        if (args.get("filters") != null) {
            body.put("filters", args.get("filters"));
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
        return explain ? ok(explained(read(answer.json()))) : okText(lean(read(answer.json())));
    }

    /**
     * What an agent uses: each chunk's path, heading, score (4 decimals), the note's version and text, and the
     * context (the chunks to put into the prompt and their tokens); {@code degraded} only when a branch failed.
     */
    ObjectNode lean(JsonNode response) {
        ObjectNode out = JSON.createObjectNode();
        out.set("project", response.get("project"));
        if (!response.path("degraded").isEmpty()) {
            out.set("degraded", response.get("degraded"));
        }
        ArrayNode results = out.putArray("results");
        Map<String, String> versions = new HashMap<>();
        for (JsonNode r : response.path("results")) {
            ObjectNode item = results.addObject();
            String path = r.path("path").asText();
            item.put("path", path);
            item.set("heading", r.get("heading"));
            item.put("score", Math.round(r.path("score").asDouble() * 10_000) / 10_000.0);
            String version = versions.computeIfAbsent(path, this::version);
            if (version != null) {
                item.put("version", version);
            }
            item.set("text", r.get("text"));
        }
        JsonNode context = response.path("context");
        ObjectNode outContext = out.putObject("context");
        for (String field : List.of("chunks", "tokens_used", "token_budget")) {
            outContext.set(field, context.get(field));
        }
        return out;
    }

    /** The lean answer with the route's strategy, degraded reasons and each chunk's score breakdown. */
    ObjectNode explained(JsonNode response) {
        ObjectNode out = lean(response);
        out.set("strategy", response.get("strategy"));
        out.set("degraded", response.get("degraded"));
        out.set("degraded_reasons", response.get("degraded_reasons"));
        for (int i = 0; i < out.path("results").size(); i++) {
            JsonNode r = response.path("results").get(i);
            ((ObjectNode) out.path("results").get(i)).put("score", r.path("score").asDouble())
                    .set("breakdown", r.get("breakdown"));
        }
        out.set("context", response.get("context"));
        return out;
    }

    /** The note's version as read_note gives it (git's blob id of its text), null when it cannot be read now. */
    private String version(String path) {
        try {
            return NoteVersion.of(files.read(path));
        } catch (ApiException e) {
            return null;
        }
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
