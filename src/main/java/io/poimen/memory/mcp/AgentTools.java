package io.poimen.memory.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP tools beyond reading: {@code propose_edit} and {@code draft_status} go through the edit-through-review
 * routes ({@code direct:grc-draft}, {@code direct:grc-draft-get}, {@code direct:grc-status}): a proposal becomes a
 * stored draft, a branch and a pull request, and nothing reaches the vault before a reviewer merges it.
 * {@code build_context} ({@code direct:mcp-build-context}) and {@code recent_changes}
 * ({@code direct:mcp-recent-changes}) read through routes too. Every call carries the MCP request's credentials
 * (the request's caller and trace id in the MCP transport context, see {@link HubCalls}), so the caller's policies and the audit apply as over HTTP.
 */
public class AgentTools extends HubTools {
    public AgentTools(HubCalls hub, McpJsonMapper mcpJson) {
        super(hub, mcpJson);
    }

    @Override
    public List<SyncToolSpecification> specifications() {
        return List.of(
                tool("propose_edit", "Propose a change to one note: the whole new markdown text and a message. "
                        + "Creates a draft that becomes a branch and a pull request for review; nothing changes in "
                        + "the vault until a reviewer merges it. Needs write access to the note.", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path of the note, e.g. projects/poimen/tools/kubectl.md"},
                          "content":{"type":"string","description":"the whole new markdown text of the note"},
                          "message":{"type":"string","description":"commit message and pull request title"}},
                         "required":["path","content","message"]}""", this::proposeEdit),
                tool("draft_status", "Status of a draft made by propose_edit: pending, delivering, delivered or "
                        + "failed, with the pull request URL once it is open and its review state.", """
                        {"type":"object","properties":{
                          "draft_id":{"type":"string","description":"the draft_id propose_edit returned"}},
                         "required":["draft_id"]}""", this::draftStatus),
                tool("build_context", "A note plus its wiki-link neighbourhood (linked and linking notes), ranked "
                        + "by link distance and cut to a token budget. Only notes you may read.", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path of the starting note"},
                          "budget_tokens":{"type":"integer","minimum":1,"maximum":200000,"description":"default 2000"},
                          "hops":{"type":"integer","minimum":0,"maximum":2,"description":"link distance, default 1"}},
                         "required":["path"]}""", this::buildContext),
                tool("recent_changes", "Notes changed since a commit or a time, from the vault's git history, newest "
                        + "first. Only notes you may read.", """
                        {"type":"object","properties":{
                          "since":{"type":"string","description":"a commit id, or an ISO-8601 time like 2026-12-01T00:00:00Z"},
                          "limit":{"type":"integer","minimum":1,"maximum":500,"description":"notes at most, default 50"}},
                         "required":["since"]}""", this::recentChanges));
    }

    McpSchema.CallToolResult proposeEdit(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("document_path", args.get("path"));
        body.put("content", args.get("content"));
        body.put("message", args.get("message"));
        HubCalls.Answer answer = hub.call("direct:grc-draft", context, write(body),
                Map.of());
        if (!answer.ok()) {
            return error(answer, answer.status() == 403 || answer.status() == 401
                    ? "refused, no draft was made: " : "no draft was made: ");
        }
        ObjectNode out = (ObjectNode) read(answer.json());
        out.put("status", out.has("pr_url") ? "delivered" : out.path("status").asText("pending"));
        out.put("review", "nothing reaches the vault until a reviewer merges the pull request");
        return ok(out);
    }

    McpSchema.CallToolResult draftStatus(McpTransportContext context, McpSchema.CallToolRequest request) {
        Object id = args(request).get("draft_id");
        if (id == null || id.toString().isBlank()) {
            return McpSchema.CallToolResult.builder().addTextContent("HTTP 400: draft_id is required").isError(true)
                    .build();
        }
        HubCalls.Answer answer = hub.call("direct:grc-draft-get", context, null, Map.of("id", id.toString()));
        if (!answer.ok()) {
            return error(answer, "");
        }
        JsonNode draft = read(answer.json());
        ObjectNode out = JSON.createObjectNode();
        for (String f : List.of("draft_id", "document_path", "status", "branch", "attempts", "last_error",
                "pr_number", "pr_url", "updated_at")) {
            out.set(f, draft.get(f));
        }
        if (draft.path("pr_number").canConvertToInt() && !draft.path("pr_number").isNull()) {
            HubCalls.Answer pr = hub.call("direct:grc-status", context, null,
                    Map.of("pr", draft.path("pr_number").asText()));
            if (pr.ok()) {
                JsonNode p = read(pr.json());
                out.set("pr_state", p.get("state"));
                out.set("review_state", p.get("review_state"));
            } else {
                out.put("pr_state_error", "HTTP " + pr.status());
            }
        }
        return ok(out);
    }

    McpSchema.CallToolResult buildContext(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> headers = new LinkedHashMap<>();
        putIfPresent(headers, "path", args.get("path"));
        putIfPresent(headers, "budget_tokens", args.get("budget_tokens"));
        putIfPresent(headers, "hops", args.get("hops"));
        HubCalls.Answer answer = hub.call("direct:mcp-build-context", context, null,
                headers);
        return answer.ok() ? ok(read(answer.json())) : error(answer, "");
    }

    McpSchema.CallToolResult recentChanges(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> headers = new LinkedHashMap<>();
        putIfPresent(headers, "since", args.get("since"));
        putIfPresent(headers, "limit", args.get("limit"));
        HubCalls.Answer answer = hub.call("direct:mcp-recent-changes", context, null,
                headers);
        return answer.ok() ? ok(read(answer.json())) : error(answer, "");
    }

    private static void putIfPresent(Map<String, Object> headers, String name, Object value) {
        if (value != null) {
            headers.put(name, value instanceof Number n ? (Object) n.intValue() : value.toString());
        }
    }
}
