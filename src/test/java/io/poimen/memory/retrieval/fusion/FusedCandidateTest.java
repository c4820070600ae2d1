package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.retrieval.branch.Branch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FusedCandidateTest {

    @Test
    void theReasonWritesNumbersAsTheRootLocaleDoes() {
        List<Double> values = new ArrayList<>(List.of(0.0, -0.0, 0.125, 0.005, 0.0005, 1.005, -1.005, 0.995, 0.9995,
                -0.125, 1e-9, -1e-9, 123456789.125, 1e20, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        Random random = new Random(3);
        for (int i = 0; i < 2000; i++) {
            values.add(random.nextInt(2001) / 1000.0 - 1); // many values exactly on a rounding boundary
            values.add(random.nextGaussian());
        }
        for (int i = 0; i + 1 < values.size(); i++) {
            double norm = values.get(i);
            double contribution = values.get(i + 1);
            FusedCandidate c = new FusedCandidate("a#0", 1.0,
                    Map.of(Branch.LEXICAL, new BranchScore(1.0, norm, 3, 0.5, contribution)), "weighted");
            assertThat(c.reason()).isEqualTo("weighted: lexical #3"
                    + String.format(Locale.ROOT, " (norm %.2f) +%.3f", norm, contribution));
        }
    }
}
