package io.poimen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.poimen.bench.eval.FusionReplay;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.retrieval.RetrievalPolicy;
import io.poimen.memory.retrieval.RetrievalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * The leave-one-set-out table of {@code bench beir} fuses as the hub does: a question in a script the model
     * does not read gives the dense list no weight. Both sets hold the same lists: BM25 and TF-IDF rank r first,
     * the dense list ranks a and b above it and agrees with them enough for the gate to keep it. The English set's
     * answer is a, so its fold keeps the dense list; the Japanese set's answer is r, which only the script rule
     * puts first (the table printed -0.0261 for arcd and -0.0160 for jsquad-ja when it fitted with every script
     * read).
     */
    @Test
    void theLeaveOneSetOutTableKeepsTheScriptRule(@TempDir Path dir) throws Exception {
        Path ja = dir.resolve("ja.json");
        Path en = dir.resolve("en.json");
        Files.writeString(ja, dump("ja", "ポッドが再起動を繰り返す理由を教えてください", "r"));
        Files.writeString(en, dump("en", "why does the pod keep restarting", "a"));
        EmbeddingModelChoice model = EmbeddingModelChoice.defaultChoice();
        RetrievalSettings settings = new RetrievalPolicy(Path.of("policies"), model).current();

        BenchReplayCommand.Fit fit = BenchReplayCommand.leaveOneSetOut(
                List.of(FusionReplay.load(ja), FusionReplay.load(en)), settings, model.scripts());

        int g = BenchReplayCommand.choose(fit.grid(), fit.score(), fit.reference(), 2, 0);
        assertThat(fit.best()[0]).isEqualTo(1.0);
        assertThat(fit.score()[g][0]).as("held-out ja, chosen %s", fit.grid().get(g)).isEqualTo(1.0);
    }

    /** One question and its answer over ten chunks: BM25 and TF-IDF rank r first, the dense list a, b, r, c... */
    private static String dump(String name, String question, String answer) {
        List<String> rest = List.of("c", "d", "e", "f", "g", "h", "i");
        StringBuilder semantic = new StringBuilder("[\"a\", 0.95], [\"b\", 0.94], [\"r\", 0.80]");
        StringBuilder lexical = new StringBuilder("[\"r\", 9.0], [\"a\", 5.0], [\"b\", 4.9]");
        StringBuilder tfidf = new StringBuilder("[\"r\", 3.0], [\"a\", 1.0], [\"b\", 0.95]");
        StringBuilder docs = new StringBuilder("\"r\": \"r\", \"a\": \"a\", \"b\": \"b\"");
        for (int i = 0; i < rest.size(); i++) {
            String c = "\"" + rest.get(i) + "\"";
            semantic.append(", [").append(c).append(", ").append(0.79 - i * 0.005).append("]");
            lexical.append(", [").append(c).append(", ").append(4.8 - i * 0.1).append("]");
            tfidf.append(", [").append(c).append(", ").append(0.9 - i * 0.05).append("]");
            docs.append(", ").append(c).append(": ").append(c);
        }
        return "{\"dataset\": \"" + name + "\", \"doc_by_chunk\": {" + docs + "}, \"qrels\": {\"q\": {\""
                + answer + "\": 1}}, \"queries\": {\"q\": {\"text\": \"" + question + "\", \"branches\": {"
                + "\"semantic\": [" + semantic + "], \"lexical\": [" + lexical + "], \"tfidf\": [" + tfidf + "]}}}}";
    }
}
