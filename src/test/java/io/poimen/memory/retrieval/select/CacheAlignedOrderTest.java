package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CacheAlignedOrderTest {
    private final CacheAlignedOrder order = new CacheAlignedOrder();

    private static SelectionItem chunk(String path, int ordinal, double score) {
        return new SelectionItem(path + "#" + ordinal, path, ordinal, score, 10, "", List.of(), null);
    }

    @Test
    void ordersByPathThenOrdinalIgnoringScore() {
        List<SelectionItem> out = order.order(List.of(chunk("shared/concepts/dns.md", 0, 0.9),
                chunk("projects/poimen/tools/kubectl.md", 10, 0.8), chunk("projects/poimen/tools/kubectl.md", 2, 0.3)));
        assertThat(out).extracting(SelectionItem::chunkId).containsExactly("projects/poimen/tools/kubectl.md#2",
                "projects/poimen/tools/kubectl.md#10", "shared/concepts/dns.md#0");
    }

    @Test
    void sameSelectionWithDifferentScoresGivesTheSameContext() {
        List<SelectionItem> first = List.of(chunk("b.md", 0, 0.9), chunk("a.md", 1, 0.5), chunk("a.md", 0, 0.4));
        List<SelectionItem> second = List.of(chunk("a.md", 0, 0.95), chunk("b.md", 0, 0.2), chunk("a.md", 1, 0.6));
        assertThat(order.order(first)).extracting(SelectionItem::chunkId)
                .isEqualTo(order.order(second).stream().map(SelectionItem::chunkId).toList());
    }

    @Test
    void overlappingSelectionsShareAPrefix() {
        List<SelectionItem> first = order.order(List.of(chunk("c.md", 0, 0.9), chunk("a.md", 0, 0.8), chunk("b.md", 0, 0.7)));
        List<SelectionItem> second = order.order(List.of(chunk("a.md", 0, 0.3), chunk("b.md", 0, 0.9), chunk("d.md", 0, 0.95)));
        assertThat(first.subList(0, 2)).extracting(SelectionItem::chunkId)
                .isEqualTo(second.subList(0, 2).stream().map(SelectionItem::chunkId).toList());
    }
}
