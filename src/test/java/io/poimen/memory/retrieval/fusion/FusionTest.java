package io.poimen.memory.retrieval.fusion;

import static io.poimen.memory.retrieval.branch.Branch.LEXICAL;
import static io.poimen.memory.retrieval.branch.Branch.SEMANTIC;
import static io.poimen.memory.retrieval.branch.Branch.TFIDF;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Both fusion methods on the same inputs; method-specific numbers below. */
class FusionTest {
    private static final FusionSettings DEFAULTS = FusionSettings.defaults();

    private static BranchResult ok(Branch b, Object... idScore) {
        Hit[] hits = new Hit[idScore.length / 2];
        for (int i = 0; i < hits.length; i++) {
            hits[i] = new Hit((String) idScore[2 * i], ((Number) idScore[2 * i + 1]).doubleValue());
        }
        return BranchResult.ok(b, List.of(hits), 1);
    }

    private static List<FusedCandidate> fuse(String method, FusionSettings s, BranchResult... results) {
        return FusionMethods.of(method).fuse(List.of(results), s);
    }

    /** The case from the design notes: high semantic + fair TF-IDF beats high TF-IDF + weak semantic. */
    @ParameterizedTest
    @ValueSource(strings = {"weighted", "rrf"})
    void notesCaseDoc2First(String method) {
        List<FusedCandidate> fused = fuse(method, DEFAULTS,
                ok(TFIDF, "doc1", 0.9, "doc2", 0.7),
                ok(SEMANTIC, "doc2", 0.95, "doc1", 0.6));

        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("doc2", "doc1");
        assertThat(fused.get(0).score()).isGreaterThan(fused.get(1).score());
        assertThat(fused).allMatch(c -> c.fusion().equals(method));
    }

    /** The design's threshold trap: a keyword only BM25 finds must survive the defaults. */
    @ParameterizedTest
    @ValueSource(strings = {"weighted", "rrf"})
    void exactKeywordFoundOnlyByLexicalSurvives(String method) {
        BranchResult semantic = ok(SEMANTIC, "a", 0.82, "b", 0.80, "c", 0.71, "d", 0.70);
        BranchResult tfidf = ok(TFIDF, "a", 0.4, "c", 0.3, "b", 0.1);
        BranchResult lexical = ok(LEXICAL, "kw", 14.2, "a", 3.1, "d", 2.0);

        for (FusionSettings s : List.of(DEFAULTS,
                DEFAULTS.withMinNormalized(Map.of(SEMANTIC, 0.5, LEXICAL, 0.5, TFIDF, 0.5)))) {
            List<FusedCandidate> fused = fuse(method, s, semantic, tfidf, lexical);
            FusedCandidate kw = fused.stream().filter(c -> c.chunkId().equals("kw")).findFirst().orElseThrow();
            assertThat(kw.components()).containsOnlyKeys(LEXICAL);
            assertThat(kw.score()).isPositive();
            assertThat(fused.indexOf(kw)).isLessThan(10);
        }
    }

    @Test
    void weightedNumbersAndBreakdown() {
        List<FusedCandidate> fused = fuse("weighted", DEFAULTS,
                ok(SEMANTIC, "a", 0.9, "b", 0.5, "c", 0.7),
                ok(LEXICAL, "b", 10.0, "a", 5.0),
                ok(TFIDF, "a", 0.3));
        // weights renormalised: 0.6/1.2, 0.4/1.2, 0.2/1.2
        double ws = 0.5, wl = 0.4 / 1.2, wt = 0.2 / 1.2;
        FusedCandidate a = find(fused, "a");
        assertThat(a.score()).isCloseTo(ws * 1.0 + wl * 0.0 + wt * 1.0, within(1e-12));
        assertThat(find(fused, "b").score()).isCloseTo(wl, within(1e-12));
        assertThat(find(fused, "c").score()).isCloseTo(ws * 0.5, within(1e-12));

        BranchScore aLex = a.components().get(LEXICAL);
        assertThat(aLex.raw()).isEqualTo(5.0);
        assertThat(aLex.normalized()).isZero();
        assertThat(aLex.rank()).isEqualTo(2);
        assertThat(aLex.weight()).isCloseTo(wl, within(1e-12));
        // in the order the fusion was given the branches (the route's order)
        assertThat(a.components().keySet()).containsExactly(SEMANTIC, LEXICAL, TFIDF);
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("a", "b", "c");
        assertThat(a.reason()).isEqualTo(
                "weighted: semantic #1 (norm 1.00) +0.500, tfidf #1 (norm 1.00) +0.167, lexical #2 (norm 0.00) +0.000");
    }

    @Test
    void rrfNumbers() {
        FusionSettings s = DEFAULTS.withMethod("rrf");
        List<FusedCandidate> fused = fuse("rrf", s, ok(SEMANTIC, "a", 0.9, "b", 0.5), ok(LEXICAL, "b", 3.0));
        double ws = 0.6, wl = 0.4; // TF-IDF did not run: renormalised over semantic and lexical (sum 1.0)
        assertThat(find(fused, "a").score()).isCloseTo(ws / 61, within(1e-12));
        assertThat(find(fused, "b").score()).isCloseTo(ws / 62 + wl / 61, within(1e-12));
        assertThat(find(fused, "b").components().get(SEMANTIC).rank()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"weighted", "rrf"})
    void failedBranchIsIgnoredAndWeightsRenormalise(String method) {
        BranchResult lexical = ok(LEXICAL, "x", 5.0, "y", 1.0);
        BranchResult tfidf = ok(TFIDF, "y", 0.8, "x", 0.1);
        List<FusedCandidate> alone = fuse(method, DEFAULTS, lexical, tfidf);
        List<FusedCandidate> degraded = fuse(method, DEFAULTS, lexical, tfidf,
                BranchResult.failed(SEMANTIC, "timeout", 2000));

        assertThat(degraded).usingRecursiveComparison().isEqualTo(alone);
        assertThat(find(degraded, "x").components().get(LEXICAL).weight()).isCloseTo(0.4 / 0.6, within(1e-12));
    }

    @Test
    void weightedSingleBranchTopHitScoresOne() {
        List<FusedCandidate> fused = fuse("weighted", DEFAULTS, ok(LEXICAL, "x", 5.0, "y", 1.0));
        assertThat(fused.get(0).score()).isEqualTo(1.0);
    }

    @Test
    void zeroWeightBranchRunAloneStillRanks() {
        FusionSettings noTfidf = new FusionSettings("weighted", 0.6, 0.4, 0.0, 60, Map.of());
        List<FusedCandidate> fused = fuse("weighted", noTfidf, ok(TFIDF, "p", 0.2, "q", 0.9));
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("q", "p");
    }

    @ParameterizedTest
    @ValueSource(strings = {"weighted", "rrf"})
    void branchThresholdDropsOnlyThatBranchsContribution(String method) {
        FusionSettings s = DEFAULTS.withMinNormalized(Map.of(SEMANTIC, 0.6));
        List<FusedCandidate> fused = fuse(method, s,
                ok(SEMANTIC, "a", 0.9, "b", 0.85, "c", 0.1),
                ok(LEXICAL, "c", 8.0, "a", 2.0));

        FusedCandidate b = find(fused, "b");
        FusedCandidate c = find(fused, "c");
        assertThat(b.components().get(SEMANTIC).contribution()).isPositive();
        // c is below the semantic threshold: it keeps its breakdown, gets nothing from semantic, but BM25 counts
        assertThat(c.components().get(SEMANTIC).contribution()).isZero();
        assertThat(c.components().get(SEMANTIC).normalized()).isZero();
        assertThat(c.score()).isCloseTo(c.components().get(LEXICAL).contribution(), within(1e-12));

        List<FusedCandidate> semanticOnly = fuse(method, s, ok(SEMANTIC, "a", 0.9, "b", 0.85, "c", 0.1));
        assertThat(semanticOnly).extracting(FusedCandidate::chunkId).containsExactly("a", "b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"weighted", "rrf"})
    void tiesBreakByChunkIdAndDuplicatesKeepFirstRank(String method) {
        List<FusedCandidate> fused = fuse(method, DEFAULTS, ok(LEXICAL, "m", 1.0, "c", 1.0, "m", 0.2, "k", 1.0));
        if (method.equals("weighted")) {
            assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("c", "k", "m");
        } else {
            assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("m", "c", "k");
        }
        assertThat(find(fused, "m").components().get(LEXICAL).rank()).isEqualTo(1);
        assertThat(find(fused, "k").components().get(LEXICAL).rank()).isEqualTo(3);
    }

    @Test
    void emptyInputAndEmptyBranches() {
        assertThat(fuse("weighted", DEFAULTS)).isEmpty();
        assertThat(fuse("rrf", DEFAULTS, ok(LEXICAL), BranchResult.failed(SEMANTIC, "down", 1))).isEmpty();
    }

    @Test
    void sameBranchTwiceIsAnError() {
        assertThatThrownBy(() -> fuse("rrf", DEFAULTS, ok(LEXICAL, "a", 1), ok(LEXICAL, "b", 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lexical");
    }

    private static FusedCandidate find(List<FusedCandidate> fused, String id) {
        return fused.stream().filter(c -> c.chunkId().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " missing from " + fused));
    }
}
