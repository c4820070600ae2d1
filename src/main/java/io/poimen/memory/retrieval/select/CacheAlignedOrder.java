package io.poimen.memory.retrieval.select;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Orders the selected context for prompt-prefix (KV cache) reuse: by note path, then chunk ordinal, then chunk
 * id, never by score.
 *
 * <p>Why: an LLM provider reuses the cached prefix of a prompt only up to the first differing token. If context
 * were ordered by score, two calls selecting the same chunks with slightly different scores would already differ
 * at the first chunk. A score-independent order makes the context a function of the selected set alone, so
 * identical sets give identical prompts and overlapping sets share the prefix up to their first difference in
 * path order. Chunks of one note also come together in reading order. Paths sort {@code projects/...} before
 * {@code shared/...}; relevance is still carried by the results list and each result's score.
 */
public class CacheAlignedOrder {
    private static final Comparator<SelectionItem> ORDER = Comparator.comparing(SelectionItem::path)
            .thenComparingInt(SelectionItem::ordinal)
            .thenComparing(SelectionItem::chunkId);

    public List<SelectionItem> order(List<SelectionItem> selected) {
        List<SelectionItem> out = new ArrayList<>(selected);
        out.sort(ORDER);
        return out;
    }
}
