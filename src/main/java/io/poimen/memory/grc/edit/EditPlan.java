package io.poimen.memory.grc.edit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a draft's operations do to the vault, computed before anything is written.
 *
 * @param writes      path → the note's whole new text, for every note created or changed (a move's destination too)
 * @param deletes     paths removed (a move's source too)
 * @param moves       source → destination of each move
 * @param rewrites    the links rewritten because a note moved, note by note
 * @param linkedFrom  for each deleted note, the notes that still link to it (their links are left unresolved);
 *                    only notes the editor may read are named
 */
public record EditPlan(Map<String, String> writes, Set<String> deletes, Map<String, String> moves,
                       List<LinkRewrite> rewrites, Map<String, List<String>> linkedFrom) {

    /** One link whose reference changed: {@code [[before#h|a]]} became {@code [[after#h|a]]} in {@code path}. */
    public record LinkRewrite(String path, String before, String after) {
    }

    public EditPlan {
        writes = Collections.unmodifiableMap(new LinkedHashMap<>(writes));
        deletes = Collections.unmodifiableSet(new LinkedHashSet<>(deletes));
        moves = Collections.unmodifiableMap(new LinkedHashMap<>(moves));
        rewrites = List.copyOf(rewrites);
        linkedFrom = Collections.unmodifiableMap(new LinkedHashMap<>(linkedFrom));
    }

    /** Every path the draft writes or removes. */
    public Set<String> touched() {
        Set<String> all = new LinkedHashSet<>(writes.keySet());
        all.addAll(deletes);
        return all;
    }
}
