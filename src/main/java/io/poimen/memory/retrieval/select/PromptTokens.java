package io.poimen.memory.retrieval.select;

import io.poimen.memory.vault.TokenCounter;
import java.util.List;

/**
 * The tokens of a context's prompt ({@link ContextPrompt#render}) without tokenizing the whole prompt per query:
 * the prompt's tokens are its parts' tokens one after the other, and a part's tokens are kept per chunk
 * ({@link ChunkMemo}). That holds because cl100k's pre-tokenizer always cuts between two parts: a part ends with
 * {@code ">\n\n"}, one punctuation piece whose trailing line breaks stop at the next part's {@code '<'}, and
 * {@code "<chunk"} starts a piece of its own; BPE never merges across pieces (PromptTokensTest checks this on the
 * example vault).
 */
public final class PromptTokens {
    /** About 16 MB of kept parts: a few thousand chunks. */
    static final long DEFAULT_MAX_BYTES = 16L << 20;

    private final TokenCounter tokens;
    private final ChunkMemo<int[]> parts;

    public PromptTokens(TokenCounter tokens) {
        this(tokens, DEFAULT_MAX_BYTES);
    }

    PromptTokens(TokenCounter tokens, long maxBytes) {
        this.tokens = tokens;
        this.parts = new ChunkMemo<>(maxBytes, ids -> 16 + 4 * ids.length);
    }

    /** The token ids of the rendered prompt, as {@link TokenCounter#tokens} gives them for the whole text. */
    public int[] tokens(List<ContextPrompt.Part> prompt) {
        int[][] each = new int[prompt.size()][];
        int n = 0;
        for (int i = 0; i < each.length; i++) {
            each[i] = part(prompt.get(i));
            n += each[i].length;
        }
        int[] out = new int[n];
        int at = 0;
        for (int[] ids : each) {
            System.arraycopy(ids, 0, out, at, ids.length);
            at += ids.length;
        }
        return out;
    }

    /** The token count of the rendered prompt, as {@link TokenCounter#count} gives it for the whole text. */
    public int count(List<ContextPrompt.Part> prompt) {
        int n = 0;
        for (ContextPrompt.Part p : prompt) {
            n += part(p).length;
        }
        return n;
    }

    private int[] part(ContextPrompt.Part p) {
        // the id and the path are in the part's text too; the id is the key, the path the variant
        return parts.get(p.chunkId(), p.path(), p.text(), () -> tokens.tokens(ContextPrompt.render(List.of(p))));
    }
}
