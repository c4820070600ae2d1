package io.poimen.memory.retrieval.select;

import java.util.ArrayList;
import java.util.List;

/**
 * Picks the context under a token budget. Items are taken best first (score, then chunk id):
 * <ol>
 *   <li>everything after the first {@code topK} is dropped ({@link DropReason#TOP_K});</li>
 *   <li>a chunk larger than the whole budget is dropped and reported ({@link DropReason#LARGER_THAN_BUDGET}),
 *       never truncated;</li>
 *   <li>a chunk that does not fit in what is left is dropped ({@link DropReason#OVER_BUDGET}), and the next,
 *       lower-scored ones are still tried.</li>
 * </ol>
 * This is "drop the lowest scores until the sum fits", followed by a back-fill: a small lower-scored chunk may
 * take room a larger higher-scored one could not use. It never keeps a lower-scored chunk while dropping a
 * higher-scored one that would fit in its place: when h was dropped, the chunks kept before it plus h already
 * exceeded the budget, and they are all still kept.
 */
public class TokenBudgetSelector {

    public enum DropReason { TOP_K, LARGER_THAN_BUDGET, OVER_BUDGET }

    public record Dropped(SelectionItem item, DropReason reason) {
    }

    /**
     * @param selected   kept items, best first
     * @param dropped    dropped items with the reason, best first
     * @param tokensUsed sum of the kept items' tokens, ≤ budget
     * @param budget     the budget
     */
    public record Selection(List<SelectionItem> selected, List<Dropped> dropped, int tokensUsed, int budget) {
        public Selection {
            selected = List.copyOf(selected);
            dropped = List.copyOf(dropped);
        }
    }

    /** @throws IllegalArgumentException when topK or budget is &lt; 1 */
    public Selection select(List<SelectionItem> candidates, int topK, int budget) {
        if (topK < 1) {
            throw new IllegalArgumentException("top_k must be ≥ 1, got " + topK);
        }
        if (budget < 1) {
            throw new IllegalArgumentException("budget_tokens must be ≥ 1, got " + budget);
        }
        List<SelectionItem> sorted = new ArrayList<>(candidates);
        sorted.sort(SelectionItem::byScoreDesc);
        List<SelectionItem> selected = new ArrayList<>();
        List<Dropped> dropped = new ArrayList<>();
        long used = 0;
        for (int i = 0; i < sorted.size(); i++) {
            SelectionItem item = sorted.get(i);
            if (i >= topK) {
                dropped.add(new Dropped(item, DropReason.TOP_K));
            } else if (item.tokens() > budget) {
                dropped.add(new Dropped(item, DropReason.LARGER_THAN_BUDGET));
            } else if (used + item.tokens() > budget) {
                dropped.add(new Dropped(item, DropReason.OVER_BUDGET));
            } else {
                selected.add(item);
                used += item.tokens();
            }
        }
        return new Selection(selected, dropped, (int) used, budget);
    }
}
