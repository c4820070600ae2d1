package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyStateWarmUpTest {

    private static SteadyStateWarmUp.Round rounds(List<Integer> sizes, double... p50s) {
        Iterator<Double> it = java.util.Arrays.stream(p50s).boxed().iterator();
        return n -> {
            sizes.add(n);
            return it.next();
        };
    }

    @Test
    void stopsOnceTwoRoundsInARowNoLongerBeatTheBestByTheTolerance() throws Exception {
        List<Integer> sizes = new ArrayList<>();
        // 8 → 6 → 5: still falling; 4.95 and 4.99 are within 3 % of 5 → steady after the 5th round
        SteadyStateWarmUp.Result r = new SteadyStateWarmUp(0, 100, 0.03, 2, 10_000)
                .run(rounds(sizes, 8, 6, 5, 4.95, 4.99, 1, 1));
        assertThat(r.steady()).isTrue();
        assertThat(r.roundP50s()).containsExactly(8.0, 6.0, 5.0, 4.95, 4.99);
        assertThat(r.requests()).isEqualTo(500);
        assertThat(sizes).containsOnly(100);
    }

    @Test
    void slowerRoundsDoNotEndTheWarmUpBeforeTheMinimum() throws Exception {
        // a busy machine makes rounds 2 and 3 slower: without a minimum that would read as steady
        SteadyStateWarmUp.Result r = new SteadyStateWarmUp(500, 100, 0.03, 2, 10_000)
                .run(rounds(new ArrayList<>(), 10, 12, 12, 8, 6, 6, 6, 6));
        assertThat(r.roundP50s()).containsExactly(10.0, 12.0, 12.0, 8.0, 6.0, 6.0, 6.0);
        assertThat(r.requests()).isEqualTo(700);
        assertThat(r.steady()).isTrue();
    }

    @Test
    void aRoundThatFallsAgainRestartsTheCount() throws Exception {
        SteadyStateWarmUp.Result r = new SteadyStateWarmUp(0, 10, 0.03, 2, 10_000)
                .run(rounds(new ArrayList<>(), 8, 8, 4, 4, 4));
        assertThat(r.roundP50s()).containsExactly(8.0, 8.0, 4.0, 4.0, 4.0);
        assertThat(r.steady()).isTrue();
    }

    @Test
    void stopsAtTheRequestCapAndSaysItWasStillFalling() throws Exception {
        SteadyStateWarmUp.Result r = new SteadyStateWarmUp(0, 250, 0.03, 2, 1_000)
                .run(rounds(new ArrayList<>(), 10, 9, 8, 7, 6, 5));
        assertThat(r.steady()).isFalse();
        assertThat(r.requests()).isEqualTo(1_000);
        assertThat(r.roundP50s()).containsExactly(10.0, 9.0, 8.0, 7.0);
    }

    @Test
    void refusesSettingsThatCannotEnd() {
        assertThatThrownBy(() -> new SteadyStateWarmUp(0, 0, 0.03, 2, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SteadyStateWarmUp(0, 100, 1, 2, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SteadyStateWarmUp(0, 100, 0.03, 2, 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SteadyStateWarmUp(200, 100, 0.03, 2, 150))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
