package io.poimen.memory.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Vault paths named inside free text (agent event text, commit messages, sync errors, draft messages).
 * {@link #withoutDenied} hides every one a caller may not read, so a text shown next to a readable note does not
 * name a denied one. A mention is a word (text between blanks and punctuation such as quotes, brackets, commas and
 * colons) that is a note path of the vault, wherever the note sits ({@code README.md} in the root too), or that path
 * without {@code .md} (a wiki-link target), or that looks like a note path even if the vault has no such note
 * (now or any more): a word ending in {@code .md}, or starting with {@code projects/} or {@code shared/}. A
 * heading anchor ({@code #...}) goes with its path. Vault paths with blanks in them are found as they are.
 */
public final class PathMentions {
    public static final String HIDDEN = "[path hidden]";
    private static final Pattern WORD = Pattern.compile("[^\\s\"'<>()\\[\\]{}`,;:|!?*=]+");

    private PathMentions() {
    }

    /**
     * {@code text} with every path mentioned that {@code readable} refuses replaced by {@value #HIDDEN}.
     *
     * @param vaultPaths every note path of the vault (the link graph's notes)
     */
    public static String withoutDenied(String text, Set<String> vaultPaths, Predicate<String> readable) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = hideSpaced(text, vaultPaths, readable);
        Matcher m = WORD.matcher(out);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String word = m.group();
            String trail = word.substring(stripDots(word));
            String path = mentioned(word.substring(0, word.length() - trail.length()), vaultPaths);
            m.appendReplacement(b, Matcher.quoteReplacement(path == null || readable.test(path) ? word
                    : HIDDEN + trail));
        }
        m.appendTail(b);
        return b.toString();
    }

    /** The note path {@code word} names, or null when it names none. */
    private static String mentioned(String word, Set<String> vaultPaths) {
        String p = word.startsWith("./") ? word.substring(2) : word;
        int anchor = p.indexOf('#');
        p = anchor >= 0 ? p.substring(0, anchor) : p;
        if (p.isEmpty()) {
            return null;
        }
        if (vaultPaths.contains(p)) {
            return p;
        }
        if (!p.endsWith(".md") && vaultPaths.contains(p + ".md")) {
            return p + ".md";
        }
        return p.endsWith(".md") || p.startsWith("projects/") || p.startsWith("shared/") ? p : null;
    }

    /** Where trailing dots (a sentence's end, an ellipsis) begin. */
    private static int stripDots(String word) {
        int end = word.length();
        while (end > 0 && word.charAt(end - 1) == '.') {
            end--;
        }
        return end;
    }

    /** The vault paths with blanks in them cannot be words: they are looked up in the text as they are. */
    private static String hideSpaced(String text, Set<String> vaultPaths, Predicate<String> readable) {
        if (text.indexOf(' ') < 0 && text.indexOf('\t') < 0) {
            return text;
        }
        String out = text;
        for (String p : spaced(vaultPaths)) {
            String stem = p.endsWith(".md") ? p.substring(0, p.length() - ".md".length()) : p;
            if (out.contains(stem) && !readable.test(p)) {
                out = out.replace(p, HIDDEN).replace(stem, HIDDEN);
            }
        }
        return out;
    }

    private record Spaced(Set<String> of, List<String> paths) {
    }

    /** The paths with blanks of the last vault path set asked about (one graph snapshot serves many texts). */
    private static volatile Spaced spaced = new Spaced(Set.of(), List.of());

    private static List<String> spaced(Set<String> vaultPaths) {
        Spaced s = spaced;
        if (s.of() != vaultPaths) {
            List<String> paths = new ArrayList<>();
            for (String p : vaultPaths) {
                if (p.indexOf(' ') >= 0 || p.indexOf('\t') >= 0) {
                    paths.add(p);
                }
            }
            s = new Spaced(vaultPaths, List.copyOf(paths));
            spaced = s;
        }
        return s.paths();
    }
}
