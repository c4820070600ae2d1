package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PairedMarginTest {

    private static Map<String, Double> scores(double... values) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            m.put("q" + i, values[i]);
        }
        return m;
    }

    @Test
    void theSameScoresGiveNoMarginAndANullInterval() {
        PairedMargin p = PairedMargin.of(scores(0.5, 0.7, 0.1), scores(0.5, 0.7, 0.1));

        assertThat(p).isEqualTo(new PairedMargin(0, 0, 0, 0, 0));
    }

    @Test
    void aHybridBetterOnEveryQueryByTheSameAmountHasThatIntervalExactly() {
        PairedMargin p = PairedMargin.of(scores(0.6, 0.8, 0.2), scores(0.5, 0.7, 0.1));

        assertThat(p.margin()).isCloseTo(0.1, within(1e-12));
        assertThat(p.low()).isCloseTo(0.1, within(1e-12));
        assertThat(p.high()).isCloseTo(0.1, within(1e-12));
        assertThat(p.better()).isEqualTo(3);
        assertThat(p.worse()).isZero();
    }

    @Test
    void oneLargeGainAgainstSeveralSmallLossesIsAnIntervalAroundZero() {
        Map<String, Double> other = scores(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5);
        Map<String, Double> hybrid = scores(0.9, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45);

        PairedMargin p = PairedMargin.of(hybrid, other);

        assertThat(p.margin()).isCloseTo(-0.005, within(1e-12));
        assertThat(p.better()).isEqualTo(1);
        assertThat(p.worse()).isEqualTo(9);
        assertThat(p.low()).isLessThan(p.margin());
        assertThat(p.high()).isGreaterThan(0);
        assertThat(PairedMargin.of(hybrid, other)).as("a fixed seed: the same interval every run").isEqualTo(p);
    }

    @Test
    void onlyQueriesBothMethodsScoredCount() {
        Map<String, Double> hybrid = scores(0.6, 0.6);
        hybrid.put("only-here", 0.0);

        PairedMargin p = PairedMargin.of(hybrid, scores(0.5, 0.5));

        assertThat(p.margin()).isCloseTo(0.1, within(1e-12));
        assertThat(p.better() + p.worse()).isEqualTo(2);
    }
}
