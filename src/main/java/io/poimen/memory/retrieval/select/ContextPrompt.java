package io.poimen.memory.retrieval.select;

import java.util.List;

/**
 * How a context is put into a prompt, so that prefix reuse can be counted on the exact text a model sees: each
 * chunk, in context order, as
 * <pre>
 * &lt;chunk id="projects/p/note.md#2" path="projects/p/note.md"&gt;
 * text
 * &lt;/chunk&gt;
 * </pre>
 * followed by an empty line. Nothing in it depends on the question, the score or the time, so the same chunks in
 * the same order always give the same prompt text.
 */
public final class ContextPrompt {

    /** One chunk of the context. */
    public record Part(String chunkId, String path, String text) {
    }

    private ContextPrompt() {
    }

    public static String render(List<Part> parts) {
        StringBuilder out = new StringBuilder();
        for (Part p : parts) {
            out.append("<chunk id=\"").append(p.chunkId()).append("\" path=\"").append(p.path()).append("\">\n")
                    .append(p.text() == null ? "" : p.text().strip()).append("\n</chunk>\n\n");
        }
        return out.toString();
    }

    /** Number of leading tokens {@code a} and {@code b} have in common. */
    public static int commonPrefix(int[] a, int[] b) {
        int n = Math.min(a.length, b.length);
        int i = 0;
        while (i < n && a[i] == b[i]) {
            i++;
        }
        return i;
    }
}
