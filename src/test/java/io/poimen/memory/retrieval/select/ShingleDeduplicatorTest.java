package io.poimen.memory.retrieval.select;

import static io.poimen.memory.retrieval.select.Items.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShingleDeduplicatorTest {
    private static final String BASE = "Restart the pod with kubectl rollout restart deployment web then watch the "
            + "events with kubectl get events and check the logs of the previous container for the crash reason";
    private final ShingleDeduplicator dedup = new ShingleDeduplicator();

    @Test
    void nearCopyIsRemovedInFavourOfTheHigherScore() {
        String copy = BASE.replace("Restart", "restart") + ".";
        ShingleDeduplicator.Result r = dedup.deduplicate(List.of(text("low", 0.4, copy), text("high", 0.9, BASE)));
        assertThat(r.kept()).extracting(SelectionItem::chunkId).containsExactly("high");
        assertThat(r.removed()).containsExactly(org.assertj.core.api.Assertions.entry("low", "high"));
    }

    @Test
    void similarityFollowsJaccardOfShingles() {
        // 29 words → 25 shingles. A new last word changes 1 shingle: J = 24 / 26, a near duplicate.
        String lastChanged = BASE.substring(0, BASE.lastIndexOf(' ')) + " cause";
        assertThat(dedup.similarity(BASE, lastChanged)).isEqualTo(24.0 / 26.0);
        assertThat(dedup.deduplicate(List.of(text("a", 0.9, BASE), text("b", 0.8, lastChanged))).kept()).hasSize(1);
        // A new 15th word changes the 5 shingles that contain it: J = 20 / 30, kept apart.
        String middleChanged = BASE.replace("with kubectl get", "with oc get");
        assertThat(dedup.similarity(BASE, middleChanged)).isEqualTo(20.0 / 30.0);
        assertThat(dedup.deduplicate(List.of(text("a", 0.9, BASE), text("b", 0.8, middleChanged))).kept()).hasSize(2);
        assertThat(dedup.similarity(BASE, BASE)).isEqualTo(1.0);
        assertThat(dedup.similarity("", "")).isZero();
    }

    @Test
    void shortTextsAreOneShingle() {
        assertThat(dedup.similarity("kubectl logs", "Kubectl  LOGS!")).isEqualTo(1.0);
        assertThat(dedup.similarity("kubectl logs", "kubectl get")).isZero();
    }

    @Test
    void emptyTextsAreNeverDuplicates() {
        assertThat(dedup.deduplicate(List.of(text("a", 1, ""), text("b", 1, " "))).kept()).hasSize(2);
    }

    @Test
    void parametersAreValidated() {
        assertThatThrownBy(() -> new ShingleDeduplicator(0, 0.8)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> new ShingleDeduplicator(5, 1.2)).hasMessageContaining("1.2");
        assertThatThrownBy(() -> new ShingleDeduplicator(5, 0)).hasMessageContaining("got 0.0");
    }
}
