package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CorpusTermSharesTest {
    private final CorpusTermShares shares = new CorpusTermShares(List.of(
            new BeirDataset.Doc("a", "Pods", "a pod crash after the restart"),
            new BeirDataset.Doc("b", "", "the pod was restarted"),
            new BeirDataset.Doc("c", "", "release notes"),
            new BeirDataset.Doc("d", "", "quarterly revenue")));

    @Test
    void aChunksShareIsTheIdfOfTheQueryTermsItsDocumentHoldsOverTheIdfOfAll() {
        var s = shares.forQuery("why did the pod crash", Map.of("a#0", "a", "b#0", "b", "c#0", "c"));
        double pod = Math.log(4.0 / 2); // in a (title and text) and b
        double crash = Math.log(4.0 / 1);
        assertThat(s.applyAsDouble("a#0")).isCloseTo(1.0, within(1e-12));
        assertThat(s.applyAsDouble("b#0")).isCloseTo(pod / (pod + crash), within(1e-12));
        assertThat(s.applyAsDouble("c#0")).isZero();
        assertThat(s.applyAsDouble("unknown#0")).isZero();
        assertThat(shares.forQuery("zebracorn", Map.of()).applyAsDouble("a")).as("no known term").isZero();
    }
}
