package io.poimen.memory.vault;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Packs a section's text into pieces of at most {@code maxTokens} tokens, cutting at paragraph boundaries
 * (blank lines outside fenced code), then at line breaks, then at spaces, then inside a word. Packing adds up
 * the token counts of the pieces it joins, so it stays linear in the text length.
 */
final class SectionSplitter {
    private static final String[] SEPARATORS = {"\n\n", "\n", " "};
    private static final int MAX_CHARS_PER_TOKEN = 64;
    private static final Pattern LEADING_BLANK_LINES = Pattern.compile("^(?:[ \\t]*\\n)+");

    private final TokenCounter tokens;
    private final int maxTokens;

    SectionSplitter(TokenCounter tokens, int maxTokens) {
        if (maxTokens < 8) {
            throw new IllegalArgumentException("maxTokens must be at least 8, was " + maxTokens);
        }
        this.tokens = tokens;
        this.maxTokens = maxTokens;
    }

    /** A piece of a section and its token count. */
    record Piece(String text, int tokens) {
    }

    /** The section as one piece when it fits, else several; leading and trailing blank lines removed. */
    List<Piece> split(List<String> lines, List<Boolean> fenced) {
        String whole = LEADING_BLANK_LINES.matcher(String.join("\n", lines)).replaceFirst("").stripTrailing();
        if (whole.isEmpty()) {
            return List.of();
        }
        int n = cost(whole);
        if (n <= maxTokens) {
            return List.of(new Piece(whole, n));
        }
        // packing adds up the counts of parts; a piece's own count can differ by a merge at a seam
        return pack(paragraphs(lines, fenced), 0).stream().map(t -> new Piece(t, tokens.count(t))).toList();
    }

    private static List<String> paragraphs(List<String> lines, List<Boolean> fenced) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank() && !fenced.get(i)) {
                flush(current, out);
            } else {
                current.append(current.length() == 0 ? "" : "\n").append(lines.get(i));
            }
        }
        flush(current, out);
        return out;
    }

    private List<String> pack(List<String> units, int level) {
        String sep = SEPARATORS[level];
        int sepTokens = tokens.count(sep);
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int currentTokens = 0;
        for (String unit : units) {
            int n = cost(unit);
            if (n > maxTokens) {
                flush(current, out);
                currentTokens = 0;
                out.addAll(level + 1 < SEPARATORS.length
                        ? pack(Arrays.asList(unit.split(SEPARATORS[level + 1])), level + 1) : cutWord(unit));
                continue;
            }
            int joined = current.length() == 0 ? n : currentTokens + sepTokens + n;
            if (joined > maxTokens) {
                flush(current, out);
                joined = n;
            }
            current.append(current.length() == 0 ? "" : sep).append(unit);
            currentTokens = joined;
        }
        flush(current, out);
        return out;
    }

    /**
     * Token count, except that text over {@code maxTokens * MAX_CHARS_PER_TOKEN} characters counts as too big
     * without running the tokenizer: tokenizing megabytes without spaces is slow, and at worst the shortcut
     * splits a text that would have fit.
     */
    private int cost(String text) {
        return text.length() > (long) maxTokens * MAX_CHARS_PER_TOKEN ? Integer.MAX_VALUE : tokens.count(text);
    }

    /** A single over-long word: fixed-size pieces, each halved until it fits. */
    private List<String> cutWord(String word) {
        List<String> out = new ArrayList<>();
        int step = maxTokens * 2;
        for (int from = 0; from < word.length(); ) {
            int to = boundary(word, Math.min(word.length(), from + step));
            out.addAll(halve(word.substring(from, to)));
            from = to;
        }
        return out;
    }

    private List<String> halve(String piece) {
        if (piece.length() < 2 || tokens.count(piece) <= maxTokens) {
            return List.of(piece);
        }
        int mid = boundary(piece, piece.length() / 2);
        List<String> out = new ArrayList<>(halve(piece.substring(0, mid)));
        out.addAll(halve(piece.substring(mid)));
        return out;
    }

    /** Moves a cut off the middle of a surrogate pair. */
    private static int boundary(String s, int at) {
        return at < s.length() && Character.isLowSurrogate(s.charAt(at)) ? at + 1 : at;
    }

    /** Keeps the indentation of a piece's first line (code), drops blank lines around it. */
    private static void flush(StringBuilder current, List<String> out) {
        String text = LEADING_BLANK_LINES.matcher(current).replaceFirst("").stripTrailing();
        if (!text.isEmpty()) {
            out.add(text);
        }
        current.setLength(0);
    }
}
