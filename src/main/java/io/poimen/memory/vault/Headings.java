package io.poimen.memory.vault;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** ATX headings ({@code #} to {@code ######} followed by a space or the end of the line). */
final class Headings {
    private static final Pattern ATX = Pattern.compile("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*\\r?$");

    /** A heading line: level 1..6 and its text without the markers. */
    record Heading(int level, String text) {
    }

    private Headings() {
    }

    /** The heading on this line, or null. */
    static Heading parse(String line) {
        Matcher m = ATX.matcher(line);
        if (!m.matches()) {
            return null;
        }
        String text = m.group(2) == null ? "" : m.group(2).strip();
        return new Heading(m.group(1).length(), text.matches("#+") ? "" : text);
    }
}
