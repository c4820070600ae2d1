package io.poimen.memory.grc.edit;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.vault.FrontMatterParser;
import io.poimen.memory.vault.NoteSections;
import java.util.function.Supplier;

/** The text rules the operations share: blocks of lines, blank-line separation, and their errors. */
final class NoteText {
    private static final FrontMatterParser FRONT_MATTER = new FrontMatterParser();

    private NoteText() {
    }

    /** A whole note's text as sent (line ends made {@code \n}). */
    static String text(String content) {
        if (content == null) {
            throw ApiException.badRequest("content is required");
        }
        return content.replace("\r\n", "\n");
    }

    static NoteSections.Section section(String note, String section, String path) {
        try {
            return NoteSections.find(note, section == null ? "" : section);
        } catch (IllegalArgumentException e) {
            throw new ApiException(422, "section_not_found", e.getMessage() + " in " + path);
        }
    }

    static String frontMatter(Supplier<String> edit, String path) {
        try {
            return edit.get();
        } catch (IllegalArgumentException e) {
            throw new ApiException(422, "front_matter", e.getMessage() + " (" + path + ")");
        }
    }

    /** Where the body starts: after the front matter block, or 0. */
    static int bodyStart(String note) {
        return note.length() - FRONT_MATTER.body(note).length();
    }

    static String replaceOnce(String note, String find, String replacement, String path) {
        if (find == null || find.isEmpty()) {
            throw ApiException.badRequest("find_replace needs a non-empty find text");
        }
        int first = note.indexOf(find);
        if (first < 0) {
            throw new ApiException(422, "text_not_found", "the find text does not occur in " + path);
        }
        int count = 0;
        for (int at = first; at >= 0; at = note.indexOf(find, at + find.length())) {
            count++;
        }
        if (count > 1) {
            throw new ApiException(422, "text_not_unique", "the find text occurs " + count + " times in " + path
                    + "; include more of the surrounding text so that it occurs once");
        }
        return note.substring(0, first) + (replacement == null ? "" : replacement)
                + note.substring(first + find.length());
    }

    /** Content as a block of lines: ends with a newline, and a blank line when more text follows. */
    static String block(String content, boolean followed) {
        String c = content == null ? "" : content.replace("\r\n", "\n").replaceFirst("\\n+$", "");
        if (c.isEmpty()) {
            return followed ? "\n" : "";
        }
        return c + "\n" + (followed ? "\n" : "");
    }

    /** The text with its last line ended. */
    static String endLine(String s) {
        return s.isEmpty() || s.endsWith("\n") ? s : s + "\n";
    }

    /** Text that a new block may follow: ends with a blank line (or is empty). */
    static String separated(String s) {
        String t = s.replaceFirst("\\n+$", "");
        return t.isEmpty() ? "" : t + "\n\n";
    }
}
