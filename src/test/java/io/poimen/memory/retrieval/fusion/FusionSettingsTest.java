package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.retrieval.branch.Branch;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FusionSettingsTest {

    @Test
    void defaultsFollowTheDesign() {
        FusionSettings s = FusionSettings.defaults();
        assertThat(s.method()).isEqualTo("weighted");
        assertThat(s.weight(Branch.SEMANTIC)).isEqualTo(0.6);
        assertThat(s.weight(Branch.LEXICAL)).isEqualTo(0.4);
        assertThat(s.weight(Branch.TFIDF)).isEqualTo(0.2);
        assertThat(s.rrfK()).isEqualTo(60);
        assertThat(s.minNormalized(Branch.LEXICAL)).isZero();
        assertThat(s.withMethod(" RRF ").method()).isEqualTo("rrf");
    }

    @Test
    void badValuesAreRejectedByName() {
        assertThatThrownBy(() -> new FusionSettings("borda", 0.6, 0.4, 0.2, 60, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'borda'");
        assertThatThrownBy(() -> new FusionSettings(null, 0.6, 0.4, 0.2, 60, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
        assertThatThrownBy(() -> new FusionSettings("rrf", -0.1, 0.4, 0.2, 60, Map.of()))
                .hasMessageContaining("semantic").hasMessageContaining("-0.1");
        assertThatThrownBy(() -> new FusionSettings("rrf", 0.6, Double.NaN, 0.2, 60, Map.of()))
                .hasMessageContaining("lexical").hasMessageContaining("NaN");
        assertThatThrownBy(() -> new FusionSettings("rrf", 0.6, 0.4, Double.POSITIVE_INFINITY, 60, Map.of()))
                .hasMessageContaining("tfidf");
        assertThatThrownBy(() -> new FusionSettings("weighted", 0, 0, 0, 60, Map.of()))
                .hasMessageContaining("all are 0");
        assertThatThrownBy(() -> new FusionSettings("rrf", 0.6, 0.4, 0.2, 0, Map.of())).hasMessageContaining("got 0");
        assertThatThrownBy(() -> new FusionSettings("rrf", 0.6, 0.4, 0.2, 10_001, Map.of()))
                .hasMessageContaining("10001");
        assertThatThrownBy(() -> new FusionSettings("rrf", 0.6, 0.4, 0.2, 60, Map.of(Branch.LEXICAL, 1.5)))
                .hasMessageContaining("lexical=1.5");
        Map<Branch, Double> withNull = new HashMap<>();
        withNull.put(Branch.TFIDF, null);
        assertThatThrownBy(() -> new FusionSettings("rrf", 0.6, 0.4, 0.2, 60, withNull))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thresholdMapIsCopiedAndNullMeansNone() {
        Map<Branch, Double> mins = new HashMap<>(Map.of(Branch.SEMANTIC, 0.3));
        FusionSettings s = FusionSettings.defaults().withMinNormalized(mins);
        mins.put(Branch.SEMANTIC, 0.9);
        assertThat(s.minNormalized(Branch.SEMANTIC)).isEqualTo(0.3);
        assertThat(new FusionSettings("rrf", 1, 1, 1, 1, null).minNormalized()).isEmpty();
    }
}
