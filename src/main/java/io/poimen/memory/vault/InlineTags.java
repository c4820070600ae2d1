package io.poimen.memory.vault;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Obsidian inline tags ({@code #tag}, {@code #nested/tag}) in a note body: after a line start or whitespace,
 * not all digits, and not inside code, comments or heading lines.
 */
public final class InlineTags {
    private static final Pattern TAG = Pattern.compile("(?<=^|\\s)#([\\p{L}\\p{N}_/-]*[\\p{L}_/-][\\p{L}\\p{N}_/-]*)",
            Pattern.MULTILINE);

    private InlineTags() {
    }

    public static List<String> collect(String body) {
        Set<String> tags = new LinkedHashSet<>();
        for (String line : MarkdownMask.mask(body).split("\n")) {
            if (Headings.parse(line) != null) {
                continue;
            }
            Matcher m = TAG.matcher(line);
            while (m.find()) {
                String tag = FrontMatterParser.normalizeTag(m.group(1));
                if (tag != null) {
                    tags.add(tag);
                }
            }
        }
        return List.copyOf(tags);
    }
}
