package io.poimen.memory.grc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;

/** A draft's changes as unified diffs, one per note: the note as the editor read it against the draft's text. */
final class DraftDiffs {

    /**
     * @param change  added, modified, deleted or renamed
     * @param oldPath the source of a move
     * @param diff    unified diff ({@code ---}/{@code +++} headers, three lines of context)
     */
    record FileDiff(String path, String change, String oldPath, String diff) {
    }

    private DraftDiffs() {
    }

    /** @param current the note now, for a draft of the first version whose base is not known */
    static List<FileDiff> of(DraftChanges changes, Function<String, Optional<String>> current) {
        List<FileDiff> out = new ArrayList<>();
        for (var w : changes.writes().entrySet()) {
            String origin = changes.origin(w.getKey());
            String base = changes.baseVersions().containsKey(origin) ? changes.baseTexts().get(origin)
                    : current.apply(origin).orElse(null);
            String change = !origin.equals(w.getKey()) ? "renamed" : base == null ? "added" : "modified";
            out.add(new FileDiff(w.getKey(), change, origin.equals(w.getKey()) ? null : origin,
                    unified(base == null ? null : origin, w.getKey(), base, w.getValue())));
        }
        for (String path : changes.deletes()) {
            if (!changes.moves().containsKey(path)) {
                String base = changes.baseVersions().containsKey(path) ? changes.baseTexts().get(path)
                        : current.apply(path).orElse(null);
                out.add(new FileDiff(path, "deleted", null, unified(path, null, base, null)));
            }
        }
        return out;
    }

    /** {@link #of} as the API answers it: {@code [{path, change, old_path, diff}]}. */
    static List<Map<String, Object>> json(DraftChanges changes, Function<String, Optional<String>> current) {
        return of(changes, current).stream().map(f -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", f.path());
            m.put("change", f.change());
            m.put("old_path", f.oldPath());
            m.put("diff", f.diff());
            return m;
        }).toList();
    }

    static String unified(String oldPath, String newPath, String before, String after) {
        RawText a = raw(before);
        RawText b = raw(after);
        EditList edits = DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM)
                .diff(RawTextComparator.DEFAULT, a, b);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DiffFormatter f = new DiffFormatter(out)) {
            out.writeBytes(("--- " + (oldPath == null ? "/dev/null" : "a/" + oldPath) + "\n+++ "
                    + (newPath == null ? "/dev/null" : "b/" + newPath) + "\n").getBytes(StandardCharsets.UTF_8));
            f.format(edits, a, b);
            f.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static RawText raw(String text) {
        return new RawText(text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8));
    }
}
