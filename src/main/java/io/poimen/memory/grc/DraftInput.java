package io.poimen.memory.grc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.grc.edit.NoteOperation;
import io.poimen.memory.grc.edit.NoteOperations;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The body of {@code POST /memory/grc/draft}: {@code operations} (see {@link NoteOperations}), or the first shape
 * {@code document_path} + {@code content} (a {@code write} of that note); {@code message}; and
 * {@code base_versions}, the version of each note as the editor read it (a path with {@code ""} held no note). A
 * note the operations touch without a base version gets its version at submission as its base. {@code dry_run}:
 * true to have the draft checked and its diff answered without storing anything (the editor's preview).
 *
 * @param operations JSON text of the operations as sent (null for the first shape)
 */
record DraftInput(List<NoteOperation> ops, String operations, Map<String, String> baseVersions, String message,
                  boolean dryRun) {
    private static final Pattern VERSION = Pattern.compile("[0-9a-f]{40}");

    /** A submission for real (no dry run). */
    DraftInput(List<NoteOperation> ops, String operations, Map<String, String> baseVersions, String message) {
        this(ops, operations, baseVersions, message, false);
    }

    static DraftInput parse(ObjectMapper json, byte[] body) {
        JsonNode node;
        try {
            node = json.readTree(body == null ? new byte[0] : body);
        } catch (IOException e) {
            throw ApiException.badRequest("malformed JSON: " + (e instanceof JsonProcessingException j
                    ? j.getOriginalMessage() : e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("expected a JSON object {operations, message, base_versions} or "
                    + "{document_path, content, message}");
        }
        String message = text(node, "message");
        if (message == null || message.isBlank()) {
            throw ApiException.badRequest("message is required");
        }
        Map<String, String> bases = versions(node.get("base_versions"));
        JsonNode dry = node.get("dry_run");
        if (dry != null && !dry.isNull() && !dry.isBoolean()) {
            throw ApiException.badRequest("dry_run must be true or false");
        }
        boolean dryRun = dry != null && dry.asBoolean(false);
        JsonNode operations = node.get("operations");
        if (operations != null && !operations.isNull()) {
            if (node.has("document_path") || node.has("content")) {
                throw ApiException.badRequest("send operations, or document_path and content, not both");
            }
            return new DraftInput(NoteOperations.fromJson(operations), operations.toString(), bases, message.strip(),
                    dryRun);
        }
        // the first shape, checked as before (DraftRequest), then a write of the note
        DraftRequest request = new DraftRequest(text(node, "document_path"), text(node, "content"), message)
                .validated();
        return new DraftInput(List.of(new NoteOperation.Write(request.documentPath(), request.content())), null,
                bases, request.message(), dryRun);
    }

    private static Map<String, String> versions(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw ApiException.badRequest("base_versions must be an object {path: version}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String v = e.getValue().isTextual() ? e.getValue().asText() : null;
            if (v == null || !v.isEmpty() && !VERSION.matcher(v).matches()) {
                throw ApiException.badRequest("base_versions." + e.getKey() + " must be a note version (40 hex "
                        + "digits, as a read of the note answers it) or \"\" for a note that did not exist");
            }
            out.put(e.getKey(), v);
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return v.asText();
    }
}
