package io.poimen.memory.grc;

import io.poimen.memory.grc.edit.TextMerge;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A draft re-applied to the vault as it is now. For each note the draft writes, its text then (the base), the note
 * now and the draft's text are merged line by line ({@link TextMerge}): a note nobody changed since gets the draft's
 * text, one changed elsewhere gets both changes when they touch different lines, and anything else is a conflict.
 * A note changed since the base is never deleted (the delete would drop that change), a move's source must still be
 * there and its destination still free, and a note the draft creates must still be missing (or hold the same
 * text). So nothing merged or delivered reverts a change made after the editor read the note.
 */
final class DraftRebase {

    /**
     * @param writes    path → the text to write
     * @param deletes   paths to remove
     * @param conflicts path → the text with git's conflict markers, or why the change cannot apply
     */
    record Result(Map<String, String> writes, Set<String> deletes, Map<String, EditConflict> conflicts) {
        boolean clean() {
            return conflicts.isEmpty();
        }

        boolean changesNothing() {
            return writes.isEmpty() && deletes.isEmpty();
        }
    }

    private DraftRebase() {
    }

    /**
     * @param current path → the note now (empty when there is none)
     * @param version path → its version now (null when there is none)
     */
    static Result onto(DraftChanges changes, Function<String, Optional<String>> current,
                       Function<String, String> version) {
        Map<String, String> writes = new LinkedHashMap<>();
        Set<String> deletes = new LinkedHashSet<>();
        Map<String, EditConflict> conflicts = new LinkedHashMap<>();
        for (Map.Entry<String, String> w : changes.writes().entrySet()) {
            String path = w.getKey();
            String origin = changes.origin(path);
            String edited = w.getValue();
            String now = current.apply(origin).orElse(null);
            if (!origin.equals(path) && current.apply(path).isPresent()) {
                conflicts.put(path, conflict(version, path, null, origin + " was to move to " + path
                        + ", which holds a note now"));
                continue;
            }
            if (!changes.baseVersions().containsKey(origin)) {
                if (!edited.equals(now)) {
                    writes.put(path, edited); // a draft of the first version: no base known
                }
                continue;
            }
            String base = changes.baseTexts().get(origin);
            if (java.util.Objects.equals(base, now)) {
                put(writes, path, edited, now, origin);
            } else if (base == null) {
                if (!edited.equals(now)) {
                    conflicts.put(path, conflict(version, origin, null, origin + " was created since the draft "
                            + "was made; the draft would replace it"));
                }
            } else if (now == null) {
                conflicts.put(path, conflict(version, origin, null, origin + " was deleted or moved since the draft "
                        + "was made"));
            } else {
                TextMerge.Result merged = TextMerge.merge(base, now, edited);
                if (merged.conflicts()) {
                    conflicts.put(path, conflict(version, origin, merged.text(), origin + " changed since the draft "
                            + "was made, on the lines the draft changes"));
                } else {
                    put(writes, path, merged.text(), now, origin);
                }
            }
        }
        for (String path : changes.deletes()) {
            String now = current.apply(path).orElse(null);
            if (changes.moves().containsKey(path)) {
                if (now != null) {
                    deletes.add(path); // a missing source is the conflict of its destination, above
                }
                continue;
            }
            if (now == null) {
                continue; // deleted elsewhere already
            }
            String base = changes.baseTexts().get(path);
            if (changes.baseVersions().containsKey(path) && !now.equals(base)) {
                conflicts.put(path, conflict(version, path, null, path + " changed since the draft was made; "
                        + "deleting it would drop that change"));
            } else {
                deletes.add(path);
            }
        }
        return new Result(writes, deletes, conflicts);
    }

    /** A write that leaves the note as it is now is no change (unless the note arrives there by a move). */
    private static void put(Map<String, String> writes, String path, String text, String now, String origin) {
        if (!origin.equals(path) || !text.equals(now)) {
            writes.put(path, text);
        }
    }

    private static EditConflict conflict(Function<String, String> version, String path, String text, String reason) {
        String v = version.apply(path);
        return new EditConflict(v == null ? "" : v, text, reason);
    }
}
