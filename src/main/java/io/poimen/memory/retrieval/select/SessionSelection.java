package io.poimen.memory.retrieval.select;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Selection for a session turn that keeps the previous context's prompt prefix: the previous context's chunks are
 * walked in their order and kept at the front while each one is either still in the plain selection, or still a
 * candidate of this query (fused at any rank, so matched by a branch, in scope and readable now) scoring
 * at least {@code minScore} × the lowest score the plain selection took, within {@code carryShare} of the token budget
 * and of top-k for such carried chunks. The walk stops at the first chunk that is neither: the model's cached prefix
 * ends there, so a chunk after it would cost a better one its place and reuse nothing. The rest of the budget goes to
 * the best-scored distinct candidates, as in {@link TokenBudgetSelector}.
 *
 * <p>Why: a plain selection of ten chunks out of a few hundred changes from one follow-up question to the next, so
 * the previous prompt's first chunk is often gone and with it every cached token. Keeping what is still relevant
 * keeps the prefix; the score floor keeps a chunk of a question the session has left from crowding out this one's.
 * Carrying needs at least one previous chunk in the plain selection: when none is, the question is on another topic
 * and the turn gets the plain selection (its still-selected chunks would be kept in front, but there are none).
 */
public final class SessionSelection {
    private SessionSelection() {
    }

    public record Result(List<SelectionItem> ordered, int tokensUsed) {
    }

    /**
     * @param previous   the session's previous context, in order
     * @param pool       this query's candidates among the previous context's chunks (a kept chunk must be one)
     * @param selected   the chunk ids of this query's plain selection
     * @param candidates the distinct candidates, best first
     * @param carryShare 0..1: the share of the budget and of top-k chunks carried without being selected may take
     * @param minScore   ≥ 0: a chunk carried without being selected scores at least this × the lowest selected score
     */
    public static Result select(List<String> previous, List<SelectionItem> pool, Set<String> selected,
                                List<SelectionItem> candidates, int topK, int budget, double carryShare,
                                double minScore) {
        if (carryShare < 0 || carryShare > 1) {
            throw new IllegalArgumentException("carry share must be within 0..1, got " + carryShare);
        }
        if (minScore < 0 || !Double.isFinite(minScore)) {
            throw new IllegalArgumentException("carry min score must be a finite number ≥ 0, got " + minScore);
        }
        Map<String, SelectionItem> byId = new HashMap<>();
        pool.forEach(c -> byId.putIfAbsent(c.chunkId(), c));
        double floor = minScore * candidates.stream().filter(c -> selected.contains(c.chunkId()))
                .mapToDouble(SelectionItem::score).min().orElse(Double.POSITIVE_INFINITY);
        // a session that has left its topic (no previous chunk is selected on its own merit) carries nothing
        boolean onTopic = previous.stream().anyMatch(selected::contains);
        int carryTokens = onTopic ? (int) Math.floor(budget * carryShare) : 0;
        int carrySlots = onTopic ? (int) Math.floor(topK * carryShare) : 0;
        List<SelectionItem> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        long used = 0;
        long carriedTokens = 0;
        int carried = 0;
        for (String id : previous) {
            SelectionItem item = byId.get(id);
            if (item == null || out.size() >= topK || used + item.tokens() > budget || taken.contains(id)) {
                break;
            }
            boolean stillSelected = selected.contains(id);
            if (!stillSelected && (item.score() < floor || carried >= carrySlots
                    || carriedTokens + item.tokens() > carryTokens)) {
                break;
            }
            if (!stillSelected) {
                carried++;
                carriedTokens += item.tokens();
            }
            taken.add(id);
            out.add(item);
            used += item.tokens();
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
