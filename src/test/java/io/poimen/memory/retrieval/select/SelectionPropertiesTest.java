package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class SelectionPropertiesTest {
    private final TokenBudgetSelector selector = new TokenBudgetSelector();
    private final ShingleDeduplicator dedup = new ShingleDeduplicator();

    @Property
    void budgetIsNeverExceeded(@ForAll("items") List<SelectionItem> items,
                               @ForAll @IntRange(min = 1, max = 20) int topK,
                               @ForAll @IntRange(min = 1, max = 3000) int budget) {
        var s = selector.select(items, topK, budget);
        int sum = s.selected().stream().mapToInt(SelectionItem::tokens).sum();
        assertThat(sum).isEqualTo(s.tokensUsed()).isLessThanOrEqualTo(budget);
        assertThat(s.selected()).hasSizeLessThanOrEqualTo(topK);
        assertThat(s.selected().size() + s.dropped().size()).isEqualTo(items.size());
    }

    /** No kept chunk l and dropped (within top-k) chunk h with score(h) > score(l) such that swapping them fits. */
    @Property
    void neverKeepsALowerScoreWhereAHigherOneWouldFit(@ForAll("items") List<SelectionItem> items,
                                                      @ForAll @IntRange(min = 1, max = 3000) int budget) {
        var s = selector.select(items, items.size() + 1, budget);
        for (SelectionItem low : s.selected()) {
            for (TokenBudgetSelector.Dropped d : s.dropped()) {
                SelectionItem high = d.item();
                if (high.score() > low.score()) {
                    assertThat(s.tokensUsed() - low.tokens() + high.tokens())
                            .as("%s dropped while %s kept", high.chunkId(), low.chunkId())
                            .isGreaterThan(budget);
                }
            }
        }
    }

    /** Every removed item has a kept near duplicate scoring at least as high, and the best item always stays. */
    @Property
    void dedupNeverRemovesTheHigherScoredOfAPair(@ForAll("texts") List<SelectionItem> items) {
        ShingleDeduplicator.Result r = dedup.deduplicate(items);
        Map<String, SelectionItem> byId = new HashMap<>();
        items.forEach(i -> byId.put(i.chunkId(), i));
        Set<String> kept = r.kept().stream().map(SelectionItem::chunkId).collect(Collectors.toSet());
        r.removed().forEach((removed, keeper) -> {
            assertThat(kept).contains(keeper);
            assertThat(byId.get(keeper).score()).isGreaterThanOrEqualTo(byId.get(removed).score());
            assertThat(dedup.similarity(byId.get(removed).text(), byId.get(keeper).text())).isGreaterThanOrEqualTo(0.8);
        });
        assertThat(kept.size() + r.removed().size()).isEqualTo(items.size());
        items.stream().max((a, b) -> SelectionItem.byScoreDesc(b, a))
                .ifPresent(best -> assertThat(kept).contains(best.chunkId()));
        for (int i = 0; i < r.kept().size(); i++) {
            for (int j = i + 1; j < r.kept().size(); j++) {
                assertThat(dedup.similarity(r.kept().get(i).text(), r.kept().get(j).text())).isLessThan(0.8);
            }
        }
    }

    @Property
    void ofTwoNearDuplicatesTheHigherScoredStays(@ForAll("sentence") String text,
                                                 @ForAll @IntRange(min = 0, max = 1000) int s1,
                                                 @ForAll @IntRange(min = 0, max = 1000) int s2) {
        SelectionItem a = new SelectionItem("a", "a", 0, s1, 1, text, List.of(), null);
        SelectionItem b = new SelectionItem("b", "b", 0, s2, 1, text + " again", List.of(), null);
        ShingleDeduplicator.Result r = dedup.deduplicate(List.of(a, b));
        if (dedup.similarity(a.text(), b.text()) >= 0.8) {
            SelectionItem higher = SelectionItem.byScoreDesc(a, b) <= 0 ? a : b;
            assertThat(r.kept()).containsExactly(higher);
        } else {
            assertThat(r.kept()).hasSize(2);
        }
    }

    @Provide
    Arbitrary<List<SelectionItem>> items() {
        return Combinators.combine(Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 1200))
                .as((score, tokens) -> new int[] {score, tokens})
                .list().ofMaxSize(25)
                .map(raw -> {
                    List<SelectionItem> out = new java.util.ArrayList<>();
                    for (int i = 0; i < raw.size(); i++) {
                        out.add(Items.item("n" + i + ".md#0", raw.get(i)[0] / 1000.0, raw.get(i)[1]));
                    }
                    return out;
                });
    }

    /** Texts from a tiny vocabulary, so near duplicates actually occur. */
    @Provide
    Arbitrary<List<SelectionItem>> texts() {
        Arbitrary<String> base = sentence();
        return Combinators.combine(base, Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 100))
                .as((t, variant, score) -> new Object[] {t, variant, score})
                .list().ofMaxSize(12)
                .map(raw -> {
                    List<SelectionItem> out = new java.util.ArrayList<>();
                    String first = raw.isEmpty() ? "" : (String) raw.get(0)[0];
                    for (int i = 0; i < raw.size(); i++) {
                        int variant = (int) raw.get(i)[1];
                        String t = variant == 0 ? (String) raw.get(i)[0] : first + " x".repeat(variant - 1);
                        out.add(Items.text("c" + i, (int) raw.get(i)[2] / 100.0, t));
                    }
                    return out;
                });
    }

    @Provide
    Arbitrary<String> sentence() {
        return Arbitraries.of("pod", "crash", "kubectl", "logs", "restart", "dns", "port")
                .list().ofMinSize(0).ofMaxSize(30).map(w -> String.join(" ", w));
    }
}
