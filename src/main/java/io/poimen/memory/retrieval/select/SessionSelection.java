package io.poimen.memory.retrieval.select;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Selection for a session turn that carries the previous context forward: the chunks of the previous context that
 * are still candidates of this query (in the pool of fused candidates selection starts from, so in scope, readable
 * now and among the best-scored for this question) keep their order at the front, up to {@code carryShare} of the
 * token budget and of top-k; the rest of the budget goes to the best-scored distinct candidates, as in
 * {@link TokenBudgetSelector}.
 *
 * <p>Why: a plain selection of ten chunks out of a few hundred changes from one follow-up question to the next, so
 * the previous prompt's first chunk is often gone and with it every cached token. Keeping what is still relevant
 * keeps the prefix; the reserved share keeps room for what the new question needs.
 */
public final class SessionSelection {
    private SessionSelection() {
    }

    public record Result(List<SelectionItem> ordered, int tokensUsed) {
    }

    /**
     * @param previous   the session's previous context, in order
     * @param pool       this query's candidates among the previous context's chunks (a carried chunk must be one)
     * @param candidates the distinct candidates, best first
     * @param carryShare 0..1: the share of the budget and of top-k the carried chunks may take
     */
    public static Result select(List<String> previous, List<SelectionItem> pool, List<SelectionItem> candidates,
                                int topK, int budget, double carryShare) {
        if (carryShare < 0 || carryShare > 1) {
            throw new IllegalArgumentException("carry share must be within 0..1, got " + carryShare);
        }
        Map<String, SelectionItem> byId = new HashMap<>();
        pool.forEach(c -> byId.putIfAbsent(c.chunkId(), c));
        int carryTokens = (int) Math.floor(budget * carryShare);
        int carrySlots = (int) Math.floor(topK * carryShare);
        List<SelectionItem> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        long used = 0;
        for (String id : previous) {
            SelectionItem item = byId.get(id);
            if (item == null || out.size() >= carrySlots) {
                continue;
            }
            if (used + item.tokens() <= carryTokens && taken.add(id)) {
                out.add(item);
                used += item.tokens();
            }
        }
        List<SelectionItem> rest = new ArrayList<>(candidates);
        rest.sort(SelectionItem::byScoreDesc);
        for (SelectionItem item : rest) {
            if (out.size() >= topK) {
                break;
            }
            if (!taken.contains(item.chunkId()) && used + item.tokens() <= budget && taken.add(item.chunkId())) {
                out.add(item);
                used += item.tokens();
            }
        }
        return new Result(out, (int) used);
    }
}
