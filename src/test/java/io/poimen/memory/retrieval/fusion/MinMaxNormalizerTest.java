package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import java.util.List;
import org.junit.jupiter.api.Test;

class MinMaxNormalizerTest {
    private final MinMaxNormalizer normalizer = new MinMaxNormalizer();

    @Test
    void mapsMinToZeroMaxToOneAndKeepsOrder() {
        List<Hit> out = normalizer.normalize(List.of(new Hit("a", 12.0), new Hit("b", 4.0), new Hit("c", 8.0)));
        assertThat(out).extracting(Hit::chunkId).containsExactly("a", "b", "c");
        assertThat(out.get(0).score()).isEqualTo(1.0);
        assertThat(out.get(1).score()).isEqualTo(0.0);
        assertThat(out.get(2).score()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void negativeCosinesNormaliseToo() {
        List<Hit> out = normalizer.normalize(List.of(new Hit("a", 0.2), new Hit("b", -0.6)));
        assertThat(out).extracting(Hit::score).containsExactly(1.0, 0.0);
    }

    @Test
    void singleOrEqualScoresGiveOneAndEmptyGivesEmpty() {
        assertThat(normalizer.normalize(List.of(new Hit("a", 3.3)))).extracting(Hit::score).containsExactly(1.0);
        assertThat(normalizer.normalize(List.of(new Hit("a", 0.4), new Hit("b", 0.4))))
                .extracting(Hit::score).containsExactly(1.0, 1.0);
        assertThat(normalizer.normalize(List.of())).isEmpty();
        assertThat(normalizer.normalize(null)).isEmpty();
    }

    @Test
    void nonFiniteScoreIsRejectedNamingTheChunk() {
        assertThatThrownBy(() -> normalizer.normalize(List.of(new Hit("a", 1), new Hit("bad#3", Double.NaN))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad#3");
    }
}
