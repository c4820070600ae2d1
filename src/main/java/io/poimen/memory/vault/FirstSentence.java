package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/** The first prose sentence of a chunk: outside headings, code and comments, with inline markup removed. */
final class FirstSentence {
    private record Markup(Pattern pattern, String replacement) {
        Markup(String regex, String replacement) {
            this(Pattern.compile(regex), replacement);
        }
    }

    private static final List<Markup> MARKUP = List.of(
            new Markup("^\\s*(?:[-*+>]|\\d+[.)])\\s+(\\[[ xX]]\\s+)?", ""),
            new Markup("!?\\[\\[(?:[^\\[\\]|]*\\|)?([^\\[\\]]*)]]", "$1"),
            new Markup("\\[([^\\[\\]]*)]\\([^()]*\\)", "$1"),
            new Markup("(?<!\\w)[*_]{1,3}([^*_]+?)[*_]{1,3}(?!\\w)", "$1"),
            new Markup("^\\s*\\||\\|\\s*$", ""),
            new Markup("^\\s*[-|: ]+$", ""));

    /** Enough text for any sentence of at most 30 words; keeps the markup regexes off megabyte lines. */
    private static final int MAX_CHARS = 2000;

    private FirstSentence() {
    }

    static String of(String text, int maxWords) {
        if (text == null || text.isBlank()) {
            return "";
        }
        List<String> paragraph = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        String[] masked = MarkdownMask.mask(text).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String plain = masked[i].isBlank() ? "" : plain(cap(lines[i]));
            if (Headings.parse(masked[i]) != null || plain.isEmpty()) {
                if (!paragraph.isEmpty()) {
                    break;
                }
                continue;
            }
            paragraph.add(plain);
            if (paragraph.stream().mapToInt(String::length).sum() > MAX_CHARS) {
                break;
            }
        }
        String joined = String.join(" ", paragraph);
        int end = sentenceEnd(joined);
        String[] words = joined.substring(0, end).strip().split("\\s+");
        return String.join(" ", Arrays.copyOf(words, Math.min(words.length, maxWords))).strip();
    }

    /** Drops list and quote markers, wiki-link brackets (keeping the alias), emphasis and table pipes. */
    private static String plain(String line) {
        String out = line;
        for (Markup m : MARKUP) {
            out = m.pattern().matcher(out).replaceAll(m.replacement());
        }
        return out.replace("`", "").strip();
    }

    private static String cap(String line) {
        return line.length() > MAX_CHARS ? line.substring(0, MAX_CHARS) : line;
    }

    private static int sentenceEnd(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c == '.' || c == '!' || c == '?') && (i + 1 == s.length() || Character.isWhitespace(s.charAt(i + 1)))) {
                return i + 1;
            }
        }
        return s.length();
    }
}
