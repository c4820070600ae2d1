package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Nearest-rank percentiles and the mean, as every latency table prints them. */
class LatencyStatsTest {

    @Test
    void percentilesAreNearestRankOverTheSortedValues() {
        LatencyStats s = new LatencyStats();
        for (double v : new double[] {9, 1, 8, 2, 7, 3, 6, 4, 5, 10}) {
            s.add(v);
        }
        assertThat(s.percentile(50)).isEqualTo(5); // rank ceil(0.5 * 10) = 5
        assertThat(s.percentile(95)).isEqualTo(10); // rank ceil(9.5) = 10
        assertThat(s.percentile(90)).isEqualTo(9);
        assertThat(s.percentile(10)).isEqualTo(1);
        assertThat(s.percentile(0)).isEqualTo(1);
        assertThat(s.percentile(100)).isEqualTo(10);
        assertThat(s.mean()).isCloseTo(5.5, within(1e-12));
    }

    @Test
    void oneValueIsEveryPercentileAndNoValuesGiveZero() {
        LatencyStats one = new LatencyStats();
        one.add(3.25);
        assertThat(one.percentile(50)).isEqualTo(3.25);
        assertThat(one.percentile(99)).isEqualTo(3.25);
        LatencyStats none = new LatencyStats();
        assertThat(none.isEmpty()).isTrue();
        assertThat(none.percentile(50)).isZero();
        assertThat(none.mean()).isZero();
    }

    @Test
    void mergeHoldsBothSetsAndLeavesThemAsTheyWere() {
        LatencyStats a = new LatencyStats();
        LatencyStats b = new LatencyStats();
        a.add(1);
        a.add(2);
        b.add(30);
        LatencyStats m = LatencyStats.merge(a, b);
        assertThat(m.mean()).isCloseTo(11, within(1e-12));
        assertThat(m.percentile(100)).isEqualTo(30);
        assertThat(a.percentile(100)).isEqualTo(2);
        assertThat(b.mean()).isEqualTo(30);
    }
}
