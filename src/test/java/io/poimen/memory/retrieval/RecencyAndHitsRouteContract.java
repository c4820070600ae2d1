package io.poimen.memory.retrieval;

import static io.poimen.memory.retrieval.RecencyHitsVault.NEW;
import static io.poimen.memory.retrieval.RecencyHitsVault.OLD;
import static io.poimen.memory.retrieval.RecencyHitsVault.ONLY_USED;
import static io.poimen.memory.retrieval.RecencyHitsVault.PLAIN;
import static io.poimen.memory.retrieval.RecencyHitsVault.TIE_HITS;
import static io.poimen.memory.retrieval.RecencyHitsVault.TIE_RECENCY;
import static io.poimen.memory.retrieval.RecencyHitsVault.USED;
import static io.poimen.memory.retrieval.RecencyHitsVault.paths;
import static io.poimen.memory.retrieval.RecencyHitsVault.ranked;
import static io.poimen.memory.retrieval.RecencyHitsVault.tfidf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.retrieval.select.RecencyAndHits;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The TF-IDF branch's recency and hit factors through the query route, on a hub started over
 * {@link RecencyHitsVault}: off (the shipped weights), equal TF-IDF scores keep the tie order and nothing changes
 * however old the notes or many the selections; with the recency factor on, the note committed yesterday moves
 * above the one committed 400 days ago by the factor's ratio (git times, through the note store); with the hit
 * factor on, the chunk selected more often for the project moves up.
 */
abstract class RecencyAndHitsRouteContract {
    @Autowired
    RetrievalPolicy policy;

    /** The answer to {@code body} for a caller who may read project atlas (not its secret folder on oidc). */
    abstract JsonNode ask(String body) throws Exception;

    abstract Path policyFile();

    void weights(double recency, double hits) {
        RecencyHitsVault.weights(policyFile(), recency, hits);
        assertThat(policy.current().recencyAndHits()).as("the edited policy is in force")
                .isEqualTo(new RecencyAndHits(recency, 30, hits, 1));
    }

    static double raw(JsonNode answer, String path) {
        for (JsonNode r : answer.path("results")) {
            if (r.path("path").asText().equals(path)) {
                return r.path("breakdown").path("branches").path("tfidf").path("raw").asDouble();
            }
        }
        throw new AssertionError(path + " not in " + answer);
    }

    @Test
    void aNewerOrMoreSelectedChunkMovesUpAmongEqualTfIdfScores_andWithTheFactorsOffNothingChanges() throws Exception {
        weights(0, 0);
        JsonNode keys = ask(tfidf(TIE_RECENCY));
        JsonNode certs = ask(tfidf(TIE_HITS));
        assertThat(paths(keys)).containsSubsequence(OLD, NEW).doesNotContain(PLAIN, USED);
        assertThat(raw(keys, NEW)).as("a tie").isEqualTo(raw(keys, OLD));
        assertThat(paths(certs)).containsSubsequence(PLAIN, USED);
        assertThat(raw(certs, USED)).as("a tie").isEqualTo(raw(certs, PLAIN));

        for (int i = 0; i < 4; i++) {
            assertThat(paths(ask(tfidf(ONLY_USED)))).containsExactly(USED);
        }
        assertThat(ranked(ask(tfidf(TIE_RECENCY)))).as("off: the same answer").isEqualTo(ranked(keys));
        assertThat(ranked(ask(tfidf(TIE_HITS)))).as("off: the same answer").isEqualTo(ranked(certs));

        weights(0.5, 0);
        JsonNode recent = ask(tfidf(TIE_RECENCY));
        assertThat(paths(recent)).containsSubsequence(NEW, OLD);
        double expected = (1 + 0.5 * Math.pow(2, -1 / 30.0)) / (1 + 0.5 * Math.pow(2, -400 / 30.0));
        assertThat(raw(recent, NEW) / raw(recent, OLD)).as("the factors' ratio for 1 and 400 days")
                .isCloseTo(expected, within(2e-3));
        assertThat(ranked(ask(tfidf(TIE_HITS)))).as("no note time differs there").isEqualTo(ranked(certs));

        weights(0, 1);
        JsonNode used = ask(tfidf(TIE_HITS));
        assertThat(paths(used)).containsSubsequence(USED, PLAIN);
        assertThat(raw(used, USED)).isGreaterThan(raw(used, PLAIN));
        assertThat(ranked(ask(tfidf(TIE_RECENCY)))).isEqualTo(ranked(keys));

        weights(0, 0);
        assertThat(ranked(ask(tfidf(TIE_RECENCY)))).isEqualTo(ranked(keys));
        assertThat(ranked(ask(tfidf(TIE_HITS)))).isEqualTo(ranked(certs));
    }
}
