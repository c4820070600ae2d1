package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The agreement gate's coverage keep: BM25 and TF-IDF agree on chunks d0.., the dense list returns its own chunks
 * (no shared id, so the gate cuts it); whether it keeps its weight depends on how well its top covers the query's
 * terms against BM25's top.
 */
class CoverageKeepTest {
    private final FusionSettings settings = FusionSettings.defaults().withMethod(AdaptiveFusion.NAME);

    private static List<Hit> list(String prefix, int n, double top, double step) {
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hits.add(new Hit(prefix + i, top - i * step));
        }
        return hits;
    }

    private static List<BranchResult> disjointDense() {
        return List.of(BranchResult.ok(Branch.LEXICAL, list("d", 30, 30.0, 0.9), 1),
                BranchResult.ok(Branch.TFIDF, list("d", 30, 9.0, 0.2), 1),
                BranchResult.ok(Branch.SEMANTIC, list("own", 30, 0.8, 0.01), 1));
    }

    /** The dense list's chunks hold {@code own} of the query's terms (IDF-weighted), BM25's chunks {@code bm25}. */
    private static ToDoubleFunction<String> shares(double own, double bm25) {
        return id -> id.startsWith("own") ? own : id.startsWith("d") ? bm25 : 0;
    }

    private List<FusedCandidate> fuse(AdaptiveFusion.Gate gate, boolean reads, ToDoubleFunction<String> shares) {
        return new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS, gate, reads, shares).fuse(disjointDense(),
                settings);
    }

    @Test
    void aCutDenseListThatCoversTheQueryAsWellAsHalfOfBm25sKeepsItsWeight() {
        List<FusedCandidate> withoutShares = fuse(AdaptiveFusion.Gate.DEFAULTS, true, null);
        assertThat(withoutShares.get(0).weights().get("semantic")).isLessThan(0.01);
        assertThat(withoutShares.get(0).chunkId()).isEqualTo("d0");

        List<FusedCandidate> covering = fuse(AdaptiveFusion.Gate.DEFAULTS, true, shares(0.5, 0.9));
        // the gate left out: the weights of the calibrated fusion (spread 0.29 against bonus 0.1)
        assertThat(covering.get(0).weights().get("semantic")).isCloseTo(0.29 / 0.39, within(1e-9));
        assertThat(covering.get(0).chunkId()).isEqualTo("own0");
        assertThat(covering.get(0).reason())
                .contains("semantic kept by the gate (its top covers the query 0.50, BM25's 0.90)");
    }

    @Test
    void aCutDenseListCoveringLessThanHalfOfWhatBm25CoversStaysCut() {
        List<FusedCandidate> fused = fuse(AdaptiveFusion.Gate.DEFAULTS, true, shares(0.44, 0.9));
        assertThat(fused.get(0).weights().get("semantic")).isLessThan(0.01);
        assertThat(fused.get(0).reason()).doesNotContain("kept by the gate");
        assertThat(fused.subList(0, 10)).extracting(FusedCandidate::chunkId).allMatch(id -> id.startsWith("d"));
    }

    @Test
    void theKeepNeverLetsInAQueryTheModelDoesNotReadAndZeroTurnsItOff() {
        assertThat(fuse(AdaptiveFusion.Gate.DEFAULTS, false, shares(1, 1)).get(0).weights())
                .containsEntry("semantic", 0.0);
        AdaptiveFusion.Gate off = new AdaptiveFusion.Gate(0.5, 8, 0, true, 0);
        assertThat(fuse(off, true, shares(1, 1)).get(0).weights().get("semantic")).isLessThan(0.01);
        assertThatThrownBy(() -> new AdaptiveFusion.Gate(0.5, 8, 0, true, 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keep_coverage must be in [0, 1]");
    }

    @Test
    void aDenseListTheGateDidNotCutIsNotLookedAt() {
        List<Hit> semantic = list("d", 30, 0.8, 0.01); // the same chunks as BM25 and TF-IDF: gate open
        List<String> asked = new ArrayList<>();
        new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS, AdaptiveFusion.Gate.DEFAULTS, true, id -> {
            asked.add(id);
            return 0;
        }).fuse(List.of(BranchResult.ok(Branch.LEXICAL, list("d", 30, 30.0, 0.9), 1),
                BranchResult.ok(Branch.SEMANTIC, semantic, 1)), settings);
        assertThat(asked).isEmpty();
    }

    @Test
    void coverageIsTheTopTensSharesAveragedWithTheNdcgDiscount() {
        Map<String, Double> share = Map.of("a", 1.0, "b", 0.0);
        double d1 = 1;
        double d2 = 1 / (Math.log(3) / Math.log(2));
        assertThat(QueryCoverage.of(List.of(new Hit("a", 2), new Hit("b", 1)), share::get))
                .isCloseTo(d1 / (d1 + d2), within(1e-12));
        assertThat(QueryCoverage.of(List.of(new Hit("b", 2), new Hit("a", 1)), share::get))
                .isCloseTo(d2 / (d1 + d2), within(1e-12));
        assertThat(QueryCoverage.of(List.of(), share::get)).isZero();
        // only the first ten count
        List<Hit> eleven = new ArrayList<>(list("x", 10, 20, 1));
        eleven.add(new Hit("a", 0));
        assertThat(QueryCoverage.of(eleven, id -> id.equals("a") ? 1 : 0)).isZero();
    }
}
