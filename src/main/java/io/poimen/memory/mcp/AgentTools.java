package io.poimen.memory.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The MCP tools beyond reading. The writing tools ({@code write_note}, {@code edit_note}, {@code move_note},
 * {@code delete_note}, and {@code propose_edit} of the first version) never write: each sends one draft through the
 * edit-through-review route ({@code direct:grc-draft}) and answers its id and status; nothing reaches the vault before
 * a reviewer approves it (on the hub: {@code review_draft}; with Forgejo: its pull request). {@code draft_status},
 * {@code list_drafts} and {@code review_draft} use the review routes, {@code build_context}
 * ({@code direct:mcp-build-context}) and {@code recent_changes} ({@code direct:mcp-recent-changes}) read through
 * routes too. Every call carries the MCP request's credentials (the request's caller and trace id in the MCP
 * transport context, see {@link HubCalls}), so the caller's policies and the audit apply as over HTTP.
 */
public class AgentTools extends HubTools {
    static final String REVIEW = "nothing changes in the vault until a reviewer approves the draft";
    private static final String BASE = "\"base_version\":{\"type\":\"string\",\"description\":\"the version of the "
            + "note you edit, as read_note (or build_context) answered it; \\\"\\\" for a note that does not exist "
            + "yet. If the note changed since, your edit is merged with that change, or refused as a conflict: "
            + "nobody's change is lost\"}";
    private static final String MESSAGE = "\"message\":{\"type\":\"string\",\"description\":\"what the change is "
            + "and why, for the reviewer (the commit message)\"}";
    private static final Set<String> EDIT_OPERATIONS = Set.of("replace", "replace_section", "insert_before_section",
            "insert_after_section", "append", "prepend", "find_replace", "set_front_matter", "remove_front_matter");

    public AgentTools(HubCalls hub, McpJsonMapper mcpJson) {
        super(hub, mcpJson);
    }

    @Override
    public List<SyncToolSpecification> specifications() {
        return List.of(
                tool("write_note", "Propose a note's whole markdown text: a new note, or all of an existing one. "
                        + "Never writes directly: makes a draft for review and answers its draft_id and status; "
                        + REVIEW + ". Needs write access to the note.", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path of the note, e.g. projects/poimen/tools/kubectl.md"},
                          "content":{"type":"string","description":"the whole markdown text"},
                          %s, %s},
                         "required":["path","content","base_version"]}""".formatted(BASE, MESSAGE),
                        this::writeNote),
                tool("edit_note", "Propose a change inside a note, without resending it: operation replace_section, "
                        + "insert_before_section or insert_after_section (section: a heading, or a heading path "
                        + "like Causes#Probes), append or prepend (after the front matter), find_replace (find: a "
                        + "text that occurs exactly once), set_front_matter or remove_front_matter (field, value), "
                        + "replace (the whole text). Several changes, to one note or several, in one draft: pass "
                        + "operations instead, as the REST API takes them. Never writes directly: answers a draft_id "
                        + "and status; " + REVIEW + ".", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path of the note"},
                          "operation":{"type":"string","enum":["replace_section","insert_before_section","insert_after_section","append","prepend","find_replace","set_front_matter","remove_front_matter","replace"]},
                          "section":{"type":"string","description":"heading or heading path (A#B), for the section operations"},
                          "content":{"type":"string","description":"markdown text to put in"},
                          "find":{"type":"string","description":"find_replace: the exact text, occurring once"},
                          "replace":{"type":"string","description":"find_replace: its replacement"},
                          "field":{"type":"string","description":"front matter field"},
                          "value":{"description":"set_front_matter: the field's value (string, number, boolean, list, object)"},
                          "operations":{"type":"array","items":{"type":"object"},"description":"instead of one operation: several, each {op, path, ...} as POST /memory/grc/draft takes them (create, write, replace, replace_section, insert_before_section, insert_after_section, append, prepend, find_replace, set_front_matter, remove_front_matter, move, delete)"},
                          "base_versions":{"type":"object","additionalProperties":{"type":"string"},"description":"with operations: path → version as read"},
                          %s, %s}}""".formatted(BASE, MESSAGE), this::editNote),
                tool("move_note", "Propose moving or renaming a note. The links to it across the vault are rewritten "
                        + "in the same draft (as Obsidian does) and listed. Needs write access to the note and to "
                        + "the destination. Answers a draft_id and status; " + REVIEW + ".", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path of the note"},
                          "to":{"type":"string","description":"its new vault path"},
                          %s, %s},
                         "required":["path","to","base_version"]}""".formatted(BASE, MESSAGE), this::moveNote),
                tool("delete_note", "Propose deleting a note. The notes that still link to it are listed in the "
                        + "answer (their links would no longer resolve). Answers a draft_id and status; " + REVIEW
                        + ".", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path of the note"},
                          %s, %s},
                         "required":["path","base_version"]}""".formatted(BASE, MESSAGE), this::deleteNote),
                tool("propose_edit", "Propose the whole new markdown text of one note (write_note without a "
                        + "version; prefer write_note). Answers a draft_id and status; " + REVIEW + ".", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"vault path of the note, e.g. projects/poimen/tools/kubectl.md"},
                          "content":{"type":"string","description":"the whole new markdown text of the note"},
                          "message":{"type":"string","description":"commit message and pull request title"}},
                         "required":["path","content","message"]}""", this::proposeEdit),
                tool("draft_status", "A draft: its status (open, conflict, merged, rejected; with Forgejo also "
                        + "pending, delivering, delivery_failed), its diff, conflicts and review, and its pull request "
                        + "with Forgejo.", """
                        {"type":"object","properties":{
                          "draft_id":{"type":"string","description":"the draft_id a writing tool returned"}},
                         "required":["draft_id"]}""", this::draftStatus),
                tool("list_drafts", "Drafts you may see (yours, and those touching notes you may write), newest "
                        + "first, each with its diff.", """
                        {"type":"object","properties":{
                          "status":{"type":"string","enum":["open","conflict","merged","rejected","pending","delivering","delivery_failed","all"],"description":"default open"},
                          "limit":{"type":"integer","minimum":1,"maximum":200,"description":"default 20"}}}""",
                        this::listDrafts),
                tool("review_draft", "Approve or reject an open draft reviewed on the hub. Approving needs write "
                        + "access to every note it touches, and may not be done by its author unless the policy "
                        + "allows it; the approved draft is merged and searchable seconds later. Rejecting needs a "
                        + "comment (the author may withdraw their own draft).", """
                        {"type":"object","properties":{
                          "draft_id":{"type":"string"},
                          "decision":{"type":"string","enum":["approve","reject"]},
                          "comment":{"type":"string","description":"for the author; required to reject"}},
                         "required":["draft_id","decision"]}""", this::reviewDraft),
                tool("build_context", "A note plus its wiki-link neighbourhood (linked and linking notes), ranked "
                        + "by link distance and cut to a token budget, each note with its version. Only notes you "
                        + "may read.", """
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"the starting note, as %s"},
                          "budget_tokens":{"type":"integer","minimum":1,"maximum":200000,"description":"default 2000"},
                          "hops":{"type":"integer","minimum":0,"maximum":2,"description":"link distance, default 1"}},
                         "required":["path"]}""".formatted(MemoryTools.NOTE_NAME), this::buildContext),
                tool("recent_changes", "Notes changed since a commit or a time, from the vault's git history, newest "
                        + "first. Only notes you may read.", """
                        {"type":"object","properties":{
                          "since":{"type":"string","description":"a commit id, or an ISO-8601 time like 2026-12-01T00:00:00Z"},
                          "limit":{"type":"integer","minimum":1,"maximum":500,"description":"notes at most, default 50"}},
                         "required":["since"]}""", this::recentChanges));
    }

    McpSchema.CallToolResult writeNote(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("op", "write");
        op.put("path", args.get("path"));
        op.put("content", args.get("content"));
        return draft(context, List.of(op), args, "Write " + args.get("path"));
    }

    McpSchema.CallToolResult editNote(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        if (args.get("operations") != null) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("operations", args.get("operations"));
            body.put("base_versions", args.get("base_versions"));
            body.put("message", message(args, "Edit notes"));
            return send(context, body);
        }
        Object operation = args.get("operation");
        if (operation == null || !EDIT_OPERATIONS.contains(operation.toString())) {
            return refusal("HTTP 400: operation is required, one of " + EDIT_OPERATIONS
                    + " (or operations, a list); no draft was made");
        }
        if (args.get("base_version") == null) {
            return refusal("HTTP 400: base_version is required: the version read_note answered for " + args.get("path")
                    + "; no draft was made");
        }
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("op", operation.toString());
        for (String field : List.of("path", "section", "content", "find", "replace", "field", "value")) {
            if (args.containsKey(field)) {
                op.put(field, args.get(field));
            }
        }
        return draft(context, List.of(op), args, operation + " in " + args.get("path"));
    }

    McpSchema.CallToolResult moveNote(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("op", "move");
        op.put("path", args.get("path"));
        op.put("to", args.get("to"));
        return draft(context, List.of(op), args, "Move " + args.get("path") + " to " + args.get("to"));
    }

    McpSchema.CallToolResult deleteNote(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("op", "delete");
        op.put("path", args.get("path"));
        return draft(context, List.of(op), args, "Delete " + args.get("path"));
    }

    McpSchema.CallToolResult proposeEdit(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("document_path", args.get("path"));
        body.put("content", args.get("content"));
        body.put("message", args.get("message"));
        return send(context, body);
    }

    /** One draft of {@code operations}, with the note's base version as the caller read it. */
    private McpSchema.CallToolResult draft(McpTransportContext context, List<Map<String, Object>> operations,
                                           Map<String, Object> args, String defaultMessage) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("operations", operations);
        Object base = args.get("base_version");
        if (base != null && args.get("path") != null) {
            Map<String, Object> versions = new LinkedHashMap<>();
            versions.put(args.get("path").toString(), base);
            body.put("base_versions", versions);
        }
        body.put("message", message(args, defaultMessage));
        return send(context, body);
    }

    private McpSchema.CallToolResult send(McpTransportContext context, Map<String, Object> body) {
        HubCalls.Answer answer = hub.call("direct:grc-draft", context, write(body), Map.of());
        if (!answer.ok()) {
            return error(answer, answer.status() == 403 || answer.status() == 401
                    ? "refused, no draft was made: " : "no draft was made: ");
        }
        ObjectNode out = (ObjectNode) read(answer.json());
        out.put("review", REVIEW + ("forgejo".equals(out.path("review_host").asText())
                ? " (its pull request on Forgejo)" : " (review_draft, or the hub's review page)"));
        return ok(out);
    }

    private static Object message(Map<String, Object> args, String fallback) {
        Object m = args.get("message");
        return m == null || m.toString().isBlank() ? fallback : m;
    }

    private static McpSchema.CallToolResult refusal(String text) {
        return McpSchema.CallToolResult.builder().addTextContent(text).isError(true).build();
    }

    McpSchema.CallToolResult draftStatus(McpTransportContext context, McpSchema.CallToolRequest request) {
        Object id = args(request).get("draft_id");
        if (id == null || id.toString().isBlank()) {
            return refusal("HTTP 400: draft_id is required");
        }
        HubCalls.Answer answer = hub.call("direct:grc-draft-get", context, null, Map.of("id", id.toString()));
        if (!answer.ok()) {
            return error(answer, "");
        }
        JsonNode draft = read(answer.json());
        ObjectNode out = JSON.createObjectNode();
        for (String f : List.of("draft_id", "document_path", "paths", "status", "review_host", "branch", "message",
                "attempts", "last_error", "pr_number", "pr_url", "updated_at", "diff", "moves", "rewrites",
                "linked_from", "conflicts", "review")) {
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

    McpSchema.CallToolResult listDrafts(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Map<String, Object> headers = new LinkedHashMap<>();
        putIfPresent(headers, "status", args.get("status"));
        putIfPresent(headers, "limit", args.get("limit"));
        if (headers.get("limit") instanceof Integer n) {
            headers.put("limit", n.toString());
        }
        HubCalls.Answer answer = hub.call("direct:grc-drafts", context, null, headers);
        if (!answer.ok()) {
            return error(answer, "");
        }
        JsonNode all = read(answer.json());
        ArrayNode drafts = JSON.createArrayNode();
        for (JsonNode d : all.path("drafts")) {
            ObjectNode item = drafts.addObject();
            for (String f : List.of("draft_id", "user", "author_name", "message", "status", "review_host", "paths",
                    "created_at", "diff", "conflicts", "pr_url", "may_approve")) {
                item.set(f, d.get(f));
            }
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("drafts", drafts);
        return ok(out);
    }

    McpSchema.CallToolResult reviewDraft(McpTransportContext context, McpSchema.CallToolRequest request) {
        Map<String, Object> args = args(request);
        Object id = args.get("draft_id");
        Object decision = args.get("decision");
        if (id == null || id.toString().isBlank() || decision == null) {
            return refusal("HTTP 400: draft_id and decision (approve or reject) are required");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        if (args.get("comment") != null) {
            body.put("comment", args.get("comment"));
        }
        HubCalls.Answer answer = hub.call("direct:grc-review", context, write(body).getBytes(
                java.nio.charset.StandardCharsets.UTF_8), Map.of("id", id.toString(), "decision", decision.toString()));
        if (!answer.ok()) {
            return error(answer, "");
        }
        JsonNode draft = read(answer.json());
        ObjectNode out = JSON.createObjectNode();
        for (String f : List.of("draft_id", "status", "paths", "conflicts", "review", "last_error")) {
            out.set(f, draft.get(f));
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
