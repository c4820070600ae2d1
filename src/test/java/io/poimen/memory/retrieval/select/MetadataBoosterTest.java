package io.poimen.memory.retrieval.select;

import static io.poimen.memory.retrieval.select.Items.meta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.retrieval.query.NormalizedQuery;
import io.poimen.memory.retrieval.query.QueryIntent;
import io.poimen.memory.retrieval.query.QueryNormalizer;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetadataBoosterTest {
    private final QueryNormalizer normalizer = new QueryNormalizer();
    private final MetadataBooster booster = new MetadataBooster();

    private MetadataBooster.Boost boost(String query, SelectionItem item) {
        return booster.boost(normalizer.normalize(query), item);
    }

    @Test
    void keyTermMatchThroughStemming() {
        MetadataBooster.Boost b = boost("why do pods keep restarting", meta("a", List.of("Pod restarts"), "concept"));
        assertThat(b.factor()).isEqualTo(1.5);
        assertThat(b.fired()).containsExactly("key_term:Pod restarts");
    }

    @Test
    void keyTermNeedsAllItsTermsAndCountsOnce() {
        assertThat(boost("pod scheduling", meta("a", List.of("pod restarts"), null)).factor()).isEqualTo(1.0);
        MetadataBooster.Boost twice = boost("pod restarts", meta("a", List.of("pod", "restarts"), null));
        assertThat(twice.factor()).isEqualTo(1.5);
        assertThat(twice.fired()).hasSize(1);
        assertThat(boost("the of", meta("a", List.of("the"), null)).factor()).isEqualTo(1.0);
    }

    @Test
    void theBoostsOfAListAreEachItemsBoostInOrder() {
        NormalizedQuery q = normalizer.normalize("how to fix pods that keep restarting");
        List<SelectionItem> items = List.of(meta("a", List.of("Pod restarts"), "solution"),
                meta("b", List.of(), null), meta("c", List.of("pod"), "concept"), meta("d", List.of(), "solution"));
        assertThat(booster.boosts(q, items)).containsExactlyElementsOf(items.stream().map(i -> booster.boost(q, i))
                .toList());
        assertThat(booster.boosts(q, items)).extracting(MetadataBooster.Boost::factor)
                .containsExactly(1.5 * 1.3, 1.0, 1.5, 1.3);
    }

    @Test
    void categoryAlignment() {
        assertThat(boost("how to fix it", meta("a", List.of(), "solution")).fired()).containsExactly("category:solution");
        assertThat(boost("ECONNREFUSED from the hub", meta("a", List.of(), "error")).factor()).isEqualTo(1.3);
        assertThat(boost("kubectl logs for the job", meta("a", List.of(), "tool")).factor()).isEqualTo(1.3);
        assertThat(boost("what is a wiki link", meta("a", List.of(), "concept")).factor()).isEqualTo(1.0);
        assertThat(boost("how to fix it", meta("a", List.of(), "error")).fired()).isEmpty();
    }

    @Test
    void aQueryPreparedOnceBoostsEveryItemAsBoostDoes() {
        var query = normalizer.normalize("how to fix pods that keep restarting");
        var prepared = booster.forQuery(query);
        for (SelectionItem item : List.of(meta("a", List.of("Pod restarts"), "solution"),
                meta("b", List.of("pod scheduling"), "concept"), meta("c", List.of(), "error"),
                meta("d", List.of("Pod restarts"), null))) {
            assertThat(prepared.apply(item)).isEqualTo(booster.boost(query, item));
        }
        assertThat(prepared.apply(meta("a", List.of("Pod restarts"), "solution")).factor())
                .isCloseTo(1.5 * 1.3, within(1e-12));
    }

    @Test
    void bothBoostsMultiply() {
        MetadataBooster.Boost b = boost("how to fix CrashLoopBackOff",
                meta("a", List.of("CrashLoopBackOff"), "solution"));
        assertThat(b.factor()).isCloseTo(1.5 * 1.3, within(1e-12));
        assertThat(b.fired()).containsExactly("key_term:CrashLoopBackOff", "category:solution");
    }

    @Test
    void factorsAreConfigurableAndValidated() {
        MetadataBooster custom = new MetadataBooster(2.0, 1.0, new QueryIntent());
        NormalizedQuery q = normalizer.normalize("how to fix CrashLoopBackOff");
        assertThat(custom.boost(q, meta("a", List.of("crashloopbackoff"), "solution")).factor()).isEqualTo(2.0);
        assertThatThrownBy(() -> new MetadataBooster(0.5, 1.3, new QueryIntent())).hasMessageContaining("0.5");
        assertThatThrownBy(() -> new MetadataBooster(1.5, Double.NaN, new QueryIntent())).hasMessageContaining("NaN");
    }

    @Test
    void applyBoostsAndResorts() {
        SelectionItem plain = new SelectionItem("plain", "p", 0, 0.6, 5, "", List.of(), "concept");
        SelectionItem matching = new SelectionItem("match", "m", 0, 0.5, 5, "", List.of("kubectl"), "tool");
        List<SelectionItem> out = booster.apply(normalizer.normalize("kubectl rollout restart"), List.of(plain, matching));
        assertThat(out).extracting(SelectionItem::chunkId).containsExactly("match", "plain");
        assertThat(out.get(0).score()).isCloseTo(0.5 * 1.5 * 1.3, within(1e-12));
        assertThat(out.get(1).score()).isEqualTo(0.6);
    }
}
