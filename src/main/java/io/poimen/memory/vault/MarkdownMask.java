package io.poimen.memory.vault;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Blanks out the parts of markdown that are never links, headings or tags: fenced code blocks (``` or ~~~, any
 * length of at least 3, at any indentation), inline code spans (any number of backticks), HTML comments and
 * Obsidian {@code %% %%} comments. Masked characters become spaces and newlines are kept, so offsets and line
 * numbers of the masked text match the original. A line inside a raw HTML block ({@code <pre>}, {@code <script>},
 * {@code <style>}, {@code <textarea>}, up to the line with the closing tag, as in CommonMark) never opens a fence,
 * so {@code <pre><code>```lang ... ```</code></pre>} does not swallow the rest of the note.
 */
final class MarkdownMask {
    private static final Pattern FENCE = Pattern.compile("^[ \\t]*(`{3,}|~{3,})(.*)$");
    private static final Pattern RAW_HTML_OPEN =
            Pattern.compile("^ {0,3}<(pre|script|style|textarea)(?=[\\s>]|$)", Pattern.CASE_INSENSITIVE);

    private MarkdownMask() {
    }

    static String mask(String markdown) {
        String[] lines = markdown.split("\n", -1);
        boolean[] fenced = fencedLines(lines);
        StringBuilder out = new StringBuilder(markdown.length());
        for (int i = 0; i < lines.length; i++) {
            out.append(fenced[i] ? blank(lines[i]) : lines[i]);
            if (i < lines.length - 1) {
                out.append('\n');
            }
        }
        return maskInline(out);
    }

    /** Per line: true when the line opens, closes or lies inside a fenced code block (unclosed fences run to the end). */
    static boolean[] fencedLines(String[] lines) {
        boolean[] fenced = new boolean[lines.length];
        String open = null;
        String htmlEnd = null;
        for (int i = 0; i < lines.length; i++) {
            String line = stripCr(lines[i]);
            if (open == null && htmlEnd != null) {
                if (line.toLowerCase(Locale.ROOT).contains(htmlEnd)) {
                    htmlEnd = null;
                }
                continue;
            }
            if (open == null) {
                Matcher html = RAW_HTML_OPEN.matcher(line);
                if (html.find()) {
                    String end = "</" + html.group(1).toLowerCase(Locale.ROOT) + ">";
                    htmlEnd = line.toLowerCase(Locale.ROOT).indexOf(end, html.end()) >= 0 ? null : end;
                    continue;
                }
            }
            Matcher m = FENCE.matcher(line);
            if (open == null) {
                if (m.matches() && !(m.group(1).charAt(0) == '`' && m.group(2).indexOf('`') >= 0)) {
                    open = m.group(1);
                    fenced[i] = true;
                }
            } else {
                fenced[i] = true;
                if (m.matches() && m.group(1).charAt(0) == open.charAt(0)
                        && m.group(1).length() >= open.length() && m.group(2).isBlank()) {
                    open = null;
                }
            }
        }
        return fenced;
    }

    private static String maskInline(StringBuilder s) {
        CodeSpans spans = new CodeSpans(s);
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) != '\n') {
                i += 2;
            } else if (c == '`') {
                int close = spans.closerAfter(i, runLength(s, i));
                if (close < 0) {
                    i += runLength(s, i);
                } else {
                    blank(s, i, close);
                    i = close;
                }
            } else if (startsWith(s, i, "<!--")) {
                i = blankUntil(s, i, 4, "-->");
            } else if (startsWith(s, i, "%%")) {
                i = blankUntil(s, i, 2, "%%");
            } else {
                i++;
            }
        }
        return s.toString();
    }

    /**
     * Finds the closing backtick run of a code span: the next run of exactly the same length in the same
     * paragraph. Runs are indexed by length once per paragraph and consumed left to right, so the whole
     * scan is linear however many runs there are.
     */
    private static final class CodeSpans {
        private final StringBuilder s;
        private final Map<Integer, ArrayDeque<Integer>> runsByLength = new HashMap<>();
        private int paragraphEnd = -1;

        CodeSpans(StringBuilder s) {
            this.s = s;
        }

        /** End offset of the closing run for an opener of length n at start, or -1. */
        int closerAfter(int start, int n) {
            if (start >= paragraphEnd) {
                indexParagraph(start);
            }
            ArrayDeque<Integer> runs = runsByLength.getOrDefault(n, new ArrayDeque<>());
            while (!runs.isEmpty() && runs.peekFirst() <= start) {
                runs.pollFirst();
            }
            return runs.isEmpty() ? -1 : runs.pollFirst() + n;
        }

        private void indexParagraph(int from) {
            runsByLength.clear();
            paragraphEnd = endOfParagraph(s, from);
            int j = from;
            while (j < paragraphEnd) {
                if (s.charAt(j) == '`') {
                    int run = runLength(s, j);
                    runsByLength.computeIfAbsent(run, k -> new ArrayDeque<>()).add(j);
                    j += run;
                } else {
                    j++;
                }
            }
        }
    }

    /** Blanks from start to the end of the closing marker; an unclosed comment hides the rest, as Obsidian does. */
    private static int blankUntil(StringBuilder s, int start, int openLength, String close) {
        int found = s.indexOf(close, start + openLength);
        int end = found < 0 ? s.length() : found + close.length();
        blank(s, start, end);
        return end;
    }

    /** Offset of the newline that ends the paragraph holding {@code from} (the one before a blank line). */
    private static int endOfParagraph(StringBuilder s, int from) {
        int nl = s.indexOf("\n", from);
        while (nl >= 0) {
            int next = s.indexOf("\n", nl + 1);
            int lineEnd = next < 0 ? s.length() : next;
            if (isBlank(s, nl + 1, lineEnd)) {
                return nl;
            }
            nl = next;
        }
        return s.length();
    }

    private static boolean isBlank(StringBuilder s, int from, int to) {
        for (int k = from; k < to; k++) {
            if (!Character.isWhitespace(s.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    private static int runLength(CharSequence s, int from) {
        int j = from;
        while (j < s.length() && s.charAt(j) == '`') {
            j++;
        }
        return j - from;
    }

    private static boolean startsWith(StringBuilder s, int i, String prefix) {
        if (s.length() - i < prefix.length()) {
            return false;
        }
        for (int k = 0; k < prefix.length(); k++) {
            if (s.charAt(i + k) != prefix.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static void blank(StringBuilder s, int from, int to) {
        for (int k = from; k < to; k++) {
            if (s.charAt(k) != '\n') {
                s.setCharAt(k, ' ');
            }
        }
    }

    private static String blank(String line) {
        return " ".repeat(line.length());
    }

    static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }
}
