package io.poimen.memory.grc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.grc.edit.EditPlan;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a draft changes, as stored: the result of its operations on the notes as the editor read them, and those
 * versions. Merging re-applies it to the vault as it is then ({@link DraftRebase}).
 *
 * @param baseVersions path → the version ({@code NoteVersion}) each touched note had when the edit was made, ""
 *                     for a path that held no note; a path without an entry has no known base (a draft of the
 *                     first version) and is written as it is
 * @param baseTexts    path → the text of that version, for every touched note that existed
 * @param writes       path → the note's whole text after the draft (created, changed, a move's destination)
 * @param deletes      paths the draft removes (a move's source too)
 * @param moves        source → destination of each move
 * @param rewrites     links rewritten because a note moved
 * @param linkedFrom   each deleted note → the notes (the author may read) still linking to it
 */
public record DraftChanges(Map<String, String> baseVersions, Map<String, String> baseTexts,
                           Map<String, String> writes, List<String> deletes, Map<String, String> moves,
                           List<EditPlan.LinkRewrite> rewrites, Map<String, List<String>> linkedFrom) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public DraftChanges {
        baseVersions = copy(baseVersions);
        baseTexts = copy(baseTexts);
        writes = copy(writes);
        deletes = deletes == null ? List.of() : List.copyOf(deletes);
        moves = copy(moves);
        rewrites = rewrites == null ? List.of() : List.copyOf(rewrites);
        linkedFrom = copy(linkedFrom);
    }

    /** The whole text of one note, with no known base: what a draft of the first version was. */
    public static DraftChanges write(String path, String content) {
        return new DraftChanges(Map.of(), Map.of(), Map.of(path, content), List.of(), Map.of(), List.of(), Map.of());
    }

    /** Every path the draft writes or removes. */
    public Set<String> touched() {
        Set<String> all = new LinkedHashSet<>(writes.keySet());
        all.addAll(deletes);
        return all;
    }

    /** Where the note now at {@code path} came from: the source of the move (or moves) that put it there. */
    public String origin(String path) {
        String at = path;
        for (int hops = 0; hops <= moves.size(); hops++) {
            String from = null;
            for (Map.Entry<String, String> m : moves.entrySet()) {
                if (m.getValue().equals(at)) {
                    from = m.getKey();
                }
            }
            if (from == null) {
                return at;
            }
            at = from;
        }
        return at;
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static DraftChanges fromJson(String json) {
        try {
            return JSON.readValue(json, DraftChanges.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored draft changes do not parse: " + e.getOriginalMessage(), e);
        }
    }

    private static <K, V> Map<K, V> copy(Map<K, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
