package io.poimen.memory.retrieval.select;

import static io.poimen.memory.retrieval.select.Items.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.retrieval.select.TokenBudgetSelector.DropReason;
import io.poimen.memory.retrieval.select.TokenBudgetSelector.Dropped;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenBudgetSelectorTest {
    private final TokenBudgetSelector selector = new TokenBudgetSelector();

    @Test
    void dropsLowestFirstThenBackFills() {
        var s = selector.select(List.of(item("c", 0.7, 10), item("a", 0.9, 60), item("b", 0.8, 50)), 10, 100);
        assertThat(s.selected()).extracting(SelectionItem::chunkId).containsExactly("a", "c");
        assertThat(s.dropped()).containsExactly(new Dropped(item("b", 0.8, 50), DropReason.OVER_BUDGET));
        assertThat(s.tokensUsed()).isEqualTo(70);
        assertThat(s.budget()).isEqualTo(100);
    }

    @Test
    void oversizedChunkIsDroppedAndReportedNotTruncated() {
        var s = selector.select(List.of(item("huge", 0.99, 5000), item("small", 0.5, 300)), 10, 4096);
        assertThat(s.selected()).extracting(SelectionItem::chunkId).containsExactly("small");
        assertThat(s.selected().get(0).tokens()).isEqualTo(300);
        assertThat(s.dropped()).extracting(Dropped::reason).containsExactly(DropReason.LARGER_THAN_BUDGET);
    }

    @Test
    void topKComesFirst() {
        var s = selector.select(List.of(item("a", 0.9, 1), item("b", 0.8, 1), item("c", 0.7, 1)), 2, 100);
        assertThat(s.selected()).extracting(SelectionItem::chunkId).containsExactly("a", "b");
        assertThat(s.dropped()).extracting(d -> d.item().chunkId() + ":" + d.reason()).containsExactly("c:TOP_K");
    }

    @Test
    void equalScoresGoByChunkId() {
        var s = selector.select(List.of(item("b", 0.5, 60), item("a", 0.5, 60)), 10, 100);
        assertThat(s.selected()).extracting(SelectionItem::chunkId).containsExactly("a");
    }

    @Test
    void badLimitsAreRejected() {
        assertThatThrownBy(() -> selector.select(List.of(), 0, 100)).hasMessageContaining("top_k");
        assertThatThrownBy(() -> selector.select(List.of(), 10, 0)).hasMessageContaining("budget_tokens");
        assertThat(selector.select(List.of(), 10, 100).selected()).isEmpty();
    }
}
