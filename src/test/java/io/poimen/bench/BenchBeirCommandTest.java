package io.poimen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchBeirCommandTest {

    private static Map<String, Object> report(String set, double tfidf, double lexical, double semantic,
                                              double hybrid) {
        return Map.of("dataset", set, "methods", Map.of("tfidf", Map.of("ndcg@10", tfidf),
                "lexical", Map.of("ndcg@10", lexical), "semantic", Map.of("ndcg@10", semantic),
                "hybrid", Map.of("ndcg@10", hybrid)));
    }

    @Test
    void theMarginIsTheHybridMinusItsBestBranchPerSet() {
        List<Map<String, Object>> rows = BenchBeirCommand.printMargins(List.of(
                report("dbpedia-5k", 0.3656, 0.3817, 0.5077, 0.4975),
                report("arcd", 0.7010, 0.7606, 0.1103, 0.7606)));

        assertThat(rows.get(0)).containsEntry("best_branch", "semantic");
        assertThat((double) rows.get(0).get("margin")).isCloseTo(-0.0102, within(1e-9));
        assertThat(rows.get(1)).containsEntry("best_branch", "lexical");
        assertThat((double) rows.get(1).get("margin")).isCloseTo(0.0, within(1e-9));
        assertThat(rows.get(0)).doesNotContainKey("margin_interval_90");
    }

    @Test
    void withEachQuerysScoresTheMarginIsAlsoReadPerQuery() {
        Map<String, Object> methods = Map.of(
                "tfidf", Map.of("ndcg@10", 0.2, "ndcg@10_by_query", Map.of("a", 0.2, "b", 0.2)),
                "semantic", Map.of("ndcg@10", 0.5, "ndcg@10_by_query", Map.of("a", 0.4, "b", 0.6)),
                "hybrid", Map.of("ndcg@10", 0.55, "ndcg@10_by_query", Map.of("a", 0.6, "b", 0.5)));

        Map<String, Object> row = BenchBeirCommand.printMargins(List.of(Map.of("dataset", "s", "methods", methods)))
                .get(0);

        assertThat(row).containsEntry("best_branch", "semantic").containsEntry("queries_better", 1)
                .containsEntry("queries_worse", 1);
        @SuppressWarnings("unchecked")
        List<Double> interval = (List<Double>) row.get("margin_interval_90");
        assertThat(interval.get(0)).isCloseTo(-0.1, within(1e-9));
        assertThat(interval.get(1)).isCloseTo(0.2, within(1e-9));
    }
}
