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
    }
}
