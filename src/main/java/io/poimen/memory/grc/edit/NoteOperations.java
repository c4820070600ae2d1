package io.poimen.memory.grc.edit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the {@code operations} of a draft request: a JSON array of objects, each with {@code op} and the fields of
 * that operation. Read strictly: an unknown operation or field, a missing field or one of the wrong type is a 400
 * that names it and its position.
 */
public final class NoteOperations {
    public static final int MAX_OPERATIONS = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Kind(Set<String> fields, Function<Fields, NoteOperation> make) {
    }

    private static final Map<String, Kind> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("create", new Kind(Set.of("path", "content"),
                f -> new NoteOperation.Create(f.path(), f.text("content"))));
        KINDS.put("write", new Kind(Set.of("path", "content"),
                f -> new NoteOperation.Write(f.path(), f.text("content"))));
        KINDS.put("replace", new Kind(Set.of("path", "content"),
                f -> new NoteOperation.Replace(f.path(), f.text("content"))));
        KINDS.put("replace_section", new Kind(Set.of("path", "section", "content"),
                f -> new NoteOperation.ReplaceSection(f.path(), f.text("section"), f.text("content"))));
        KINDS.put("insert_before_section", new Kind(Set.of("path", "section", "content"),
                f -> new NoteOperation.InsertBeforeSection(f.path(), f.text("section"), f.text("content"))));
        KINDS.put("insert_after_section", new Kind(Set.of("path", "section", "content"),
                f -> new NoteOperation.InsertAfterSection(f.path(), f.text("section"), f.text("content"))));
        KINDS.put("append", new Kind(Set.of("path", "content"),
                f -> new NoteOperation.Append(f.path(), f.text("content"))));
        KINDS.put("prepend", new Kind(Set.of("path", "content"),
                f -> new NoteOperation.Prepend(f.path(), f.text("content"))));
        KINDS.put("find_replace", new Kind(Set.of("path", "find", "replace"),
                f -> new NoteOperation.FindReplace(f.path(), f.text("find"), f.text("replace"))));
        KINDS.put("set_front_matter", new Kind(Set.of("path", "field", "value"),
                f -> new NoteOperation.SetField(f.path(), f.text("field"), f.value("value"))));
        KINDS.put("remove_front_matter", new Kind(Set.of("path", "field"),
                f -> new NoteOperation.RemoveField(f.path(), f.text("field"))));
        KINDS.put("move", new Kind(Set.of("path", "to"), f -> new NoteOperation.Move(f.path(), f.text("to"))));
        KINDS.put("delete", new Kind(Set.of("path"), f -> new NoteOperation.Delete(f.path())));
    }

    private NoteOperations() {
    }

    /** The operation names, in the order the docs list them. */
    public static Set<String> names() {
        return KINDS.keySet();
    }

    public static List<NoteOperation> fromJson(JsonNode operations) {
        if (operations == null || !operations.isArray() || operations.isEmpty()) {
            throw ApiException.badRequest("operations must be a non-empty array of {op, path, ...} objects");
        }
        if (operations.size() > MAX_OPERATIONS) {
            throw ApiException.badRequest("a draft takes at most " + MAX_OPERATIONS + " operations, got "
                    + operations.size());
        }
        List<NoteOperation> out = new ArrayList<>();
        for (int i = 0; i < operations.size(); i++) {
            out.add(one(operations.get(i), "operations[" + i + "]"));
        }
        return List.copyOf(out);
    }

    private static NoteOperation one(JsonNode node, String where) {
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest(where + " must be an object with op and path");
        }
        JsonNode op = node.get("op");
        if (op == null || !op.isTextual()) {
            throw ApiException.badRequest(where + ".op is required, one of " + KINDS.keySet());
        }
        Kind kind = KINDS.get(op.asText());
        if (kind == null) {
            throw ApiException.badRequest(where + ".op '" + op.asText() + "' is not one of " + KINDS.keySet());
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("op") && !kind.fields().contains(name)) {
                throw ApiException.badRequest(where + ": " + op.asText() + " takes " + kind.fields()
                        + ", not '" + name + "'");
            }
        }
        return kind.make().apply(new Fields(node, where));
    }

    /** The fields of one operation, each required. */
    private record Fields(JsonNode node, String where) {
        String path() {
            return text("path");
        }

        String text(String name) {
            JsonNode v = node.get(name);
            if (v == null || v.isNull()) {
                throw ApiException.badRequest(where + "." + name + " is required");
            }
            if (!v.isTextual()) {
                throw ApiException.badRequest(where + "." + name + " must be a string");
            }
            return v.asText();
        }

        Object value(String name) {
            JsonNode v = node.get(name);
            if (v == null) {
                throw ApiException.badRequest(where + "." + name + " is required (null clears the field's value)");
            }
            return JSON.convertValue(v, Object.class);
        }
    }
}
