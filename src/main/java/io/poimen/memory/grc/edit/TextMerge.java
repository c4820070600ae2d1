package io.poimen.memory.grc.edit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.merge.MergeAlgorithm;
import org.eclipse.jgit.merge.MergeFormatter;
import org.eclipse.jgit.merge.MergeResult;

/**
 * A three-way merge of one note's text, line by line (git's algorithm, through JGit): the version an edit started
 * from, the note as it is now, and the edited text. Where the two changed different lines, both changes are kept;
 * where they changed the same lines differently, the result is a conflict and its text shows both sides between
 * git's conflict markers, for a reviewer to see, never to be merged as it is.
 */
public final class TextMerge {

    /** The merged text, or the text with conflict markers when {@code conflicts}. */
    public record Result(String text, boolean conflicts) {
    }

    private TextMerge() {
    }

    /**
     * @param base    the version the edit was made from
     * @param current the note as it is in the vault now
     * @param edited  the edit's text
     */
    public static Result merge(String base, String current, String edited) {
        if (current.equals(base) || current.equals(edited)) {
            return new Result(edited, false);
        }
        if (edited.equals(base)) {
            return new Result(current, false);
        }
        MergeResult<RawText> result = new MergeAlgorithm().merge(RawTextComparator.DEFAULT, raw(base), raw(current),
                raw(edited));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            new MergeFormatter().formatMerge(out, result, List.of("base", "vault", "draft"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Result(out.toString(StandardCharsets.UTF_8), result.containsConflicts());
    }

    private static RawText raw(String text) {
        return new RawText(text.getBytes(StandardCharsets.UTF_8));
    }
}
