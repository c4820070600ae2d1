package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sections of a note as an editor sees them: each ATX heading outside front matter, code and comments, with the
 * text it governs, up to the next heading of the same or a higher level. A section is named by its heading path,
 * the headings from an outer one down to it as Obsidian writes them in a link ({@code Troubleshooting#Restarts}):
 * each heading after the first must lie inside the section of the one before. A heading matches by its text,
 * exactly, else ignoring case when that is unique.
 */
public final class NoteSections {

    /**
     * One section; offsets into the note.
     *
     * @param start     the start of the heading line
     * @param bodyStart the start of the line after the heading
     * @param end       where the section ends: the start of the next heading of the same or a higher level, or the
     *                  end of the note
     */
    public record Section(int level, String heading, int start, int bodyStart, int end) {
    }

    private NoteSections() {
    }

    /** Every heading's section, in document order. */
    public static List<Section> all(String markdown) {
        FrontMatterParser.Block front = FrontMatterParser.find(markdown);
        int from = front == null ? 0 : front.bodyStart();
        String masked = MarkdownMask.mask(markdown);
        List<int[]> heads = new ArrayList<>(); // start, bodyStart, level
        List<String> texts = new ArrayList<>();
        int lineStart = from;
        while (lineStart <= masked.length()) {
            int nl = masked.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? masked.length() : nl;
            Headings.Heading h = Headings.parse(masked.substring(lineStart, lineEnd));
            if (h != null) {
                Headings.Heading original = Headings.parse(markdown.substring(lineStart, lineEnd));
                heads.add(new int[] {lineStart, nl < 0 ? lineEnd : nl + 1, h.level()});
                texts.add(original != null ? original.text() : h.text());
            }
            if (nl < 0) {
                break;
            }
            lineStart = nl + 1;
        }
        List<Section> out = new ArrayList<>();
        for (int i = 0; i < heads.size(); i++) {
            int end = markdown.length();
            for (int j = i + 1; j < heads.size(); j++) {
                if (heads.get(j)[2] <= heads.get(i)[2]) {
                    end = heads.get(j)[0];
                    break;
                }
            }
            out.add(new Section(heads.get(i)[2], texts.get(i), heads.get(i)[0], heads.get(i)[1], end));
        }
        return out;
    }

    /**
     * The section at {@code path} ({@code A#B#C}; a leading {@code #} is allowed).
     *
     * @throws IllegalArgumentException naming the heading that is missing or occurs more than once
     */
    public static Section find(String markdown, String path) {
        List<String> names = new ArrayList<>();
        for (String part : path.split("#")) {
            if (!part.isBlank()) {
                names.add(part.strip());
            }
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a section is named by its heading, e.g. \"Troubleshooting\" or "
                    + "\"Troubleshooting#Restarts\"");
        }
        List<Section> sections = all(markdown);
        int from = 0;
        int to = markdown.length();
        Section found = null;
        for (String name : names) {
            int lo = from;
            int hi = to;
            int minLevel = found == null ? 0 : found.level();
            List<Section> inside = sections.stream()
                    .filter(s -> s.start() >= lo && s.start() < hi && s.level() > minLevel).toList();
            found = one(inside, name, path);
            from = found.bodyStart();
            to = found.end();
        }
        return found;
    }

    private static Section one(List<Section> candidates, String name, String path) {
        List<Section> exact = candidates.stream().filter(s -> s.heading().equals(name)).toList();
        List<Section> matches = exact.isEmpty() ? candidates.stream()
                .filter(s -> s.heading().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))).toList()
                : exact;
        if (matches.isEmpty()) {
            throw new IllegalArgumentException("no heading \"" + name + "\"" + where(path, name));
        }
        if (matches.size() > 1) {
            throw new IllegalArgumentException("the heading \"" + name + "\" occurs " + matches.size() + " times"
                    + where(path, name) + "; name the section by its path, e.g. \"Outer#" + name + "\"");
        }
        return matches.get(0);
    }

    private static String where(String path, String name) {
        return path.strip().replaceFirst("^#", "").equals(name) ? "" : " in section path \"" + path + "\"";
    }
}
