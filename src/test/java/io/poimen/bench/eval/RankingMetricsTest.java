package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The measures behind every published quality figure, on cases computed by hand. */
class RankingMetricsTest {
    static final List<String> RANKED = List.of("d1", "d2", "d3", "d4");
    static final Map<String, Integer> QRELS = Map.of("d2", 2, "d3", 1, "d5", 1, "d9", 0);

    @Test
    void ndcgUsesLinearGainsAndTheIdealOrderOfAllJudgedGrades() {
        // DCG@3 = 0/log2(2) + 2/log2(3) + 1/log2(4) = 1.7618595; IDCG@3 (grades 2, 1, 1) = 2 + 1/log2(3) + 1/2
        assertThat(RankingMetrics.ndcg(RANKED, QRELS, 3)).isCloseTo(0.5627272554, within(1e-9));
        // DCG@2 = 2/log2(3); IDCG@2 = 2 + 1/log2(3)
        assertThat(RankingMetrics.ndcg(RANKED, QRELS, 2)).isCloseTo(0.4796249331, within(1e-9));
        assertThat(RankingMetrics.ndcg(List.of("d2", "d3", "d5"), QRELS, 10)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void ndcgIsZeroWithoutRelevantDocumentsAndIgnoresNegativeGrades() {
        assertThat(RankingMetrics.ndcg(RANKED, Map.of("d1", 0), 10)).isZero();
        // DCG = max(0, -1)/log2(2) + 1/log2(3); IDCG = 1 (only positive grades count)
        assertThat(RankingMetrics.ndcg(List.of("d1", "d2"), Map.of("d1", -1, "d2", 1), 10))
                .isCloseTo(0.6309297536, within(1e-9));
        assertThat(RankingMetrics.ndcg(List.of(), QRELS, 10)).isZero();
    }

    @Test
    void recallCountsRelevantDocumentsInTheTopK() {
        assertThat(RankingMetrics.recall(RANKED, QRELS, 100)).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(RankingMetrics.recall(RANKED, QRELS, 2)).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(RankingMetrics.recall(RANKED, QRELS, 1)).isZero();
        assertThat(RankingMetrics.recall(RANKED, Map.of("d1", 0), 10)).isZero();
    }

    @Test
    void mrrIsTheReciprocalRankOfTheFirstRelevantDocumentWithinK() {
        assertThat(RankingMetrics.mrr(RANKED, QRELS, 10)).isCloseTo(0.5, within(1e-12));
        assertThat(RankingMetrics.mrr(List.of("d3", "d2"), QRELS, 10)).isCloseTo(1.0, within(1e-12));
        assertThat(RankingMetrics.mrr(RANKED, QRELS, 1)).isZero();
        assertThat(RankingMetrics.mrr(List.of("d1", "d4"), QRELS, 10)).isZero();
    }
}
