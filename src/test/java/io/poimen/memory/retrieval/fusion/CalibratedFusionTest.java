package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class CalibratedFusionTest {
    private final FusionSettings settings = FusionSettings.defaults().withMethod(CalibratedFusion.NAME);

    private static BranchResult ok(Branch b, Hit... hits) {
        return BranchResult.ok(b, List.of(hits), 1);
    }

    @Test
    void notesExampleRanksDoc2First() {
        List<FusedCandidate> fused = new CalibratedFusion(new CalibratedFusion.Bonuses(0.1, 0.1)).fuse(List.of(
                ok(Branch.TFIDF, new Hit("doc1", 0.9), new Hit("doc2", 0.7)),
                ok(Branch.SEMANTIC, new Hit("doc2", 0.95), new Hit("doc1", 0.6))), settings);
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("doc2", "doc1");
        assertThat(fused.get(0).score()).isGreaterThan(fused.get(1).score());
    }

    @Test
    void keepsTheCosineAndAddsABoundedLexicalBonus() {
        List<FusedCandidate> fused = new CalibratedFusion().fuse(List.of(
                ok(Branch.SEMANTIC, new Hit("a", 0.80), new Hit("b", 0.78), new Hit("c", 0.50)),
                ok(Branch.LEXICAL, new Hit("b", 12.0), new Hit("a", 2.0))), settings);
        // b: 0.78 + 0.1 * 1.0; a: 0.80 + 0.1 * 0.0; c: 0.50
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("b", "a", "c");
        assertThat(fused.get(0).score()).isCloseTo(0.88, within(1e-9));
        assertThat(fused.get(1).score()).isCloseTo(0.80, within(1e-9));
        assertThat(fused.get(0).components().get(Branch.SEMANTIC).contribution()).isCloseTo(0.78, within(1e-9));
        assertThat(fused.get(0).fusion()).isEqualTo("calibrated");
    }

    @Test
    void aLexicalOnlyHitStartsFromTheLowestCosineAndSurvives() {
        List<FusedCandidate> fused = new CalibratedFusion().fuse(List.of(
                ok(Branch.SEMANTIC, new Hit("a", 0.70), new Hit("b", 0.40)),
                ok(Branch.LEXICAL, new Hit("exact", 30.0), new Hit("a", 1.0))), settings);
        FusedCandidate exact = fused.stream().filter(c -> c.chunkId().equals("exact")).findFirst().orElseThrow();
        assertThat(exact.score()).isCloseTo(0.40 + 0.1, within(1e-9));
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("a", "exact", "b");
    }

    @Test
    void withoutSemanticItIsTheWeightedFusion() {
        List<BranchResult> results = List.of(
                ok(Branch.LEXICAL, new Hit("x", 5.0), new Hit("y", 1.0)),
                ok(Branch.TFIDF, new Hit("y", 3.0), new Hit("x", 2.0)),
                BranchResult.failed(Branch.SEMANTIC, "down", 1));
        assertThat(new CalibratedFusion().fuse(results, settings))
                .usingRecursiveFieldByFieldElementComparatorIgnoringFields("fusion")
                .isEqualTo(new WeightedFusion().fuse(results, settings));
    }

    @Test
    void rejectsBonusesOutsideTheUnitRange() {
        assertThatThrownBy(() -> new CalibratedFusion.Bonuses(-0.1, 0)).hasMessageContaining("lexical=-0.1");
        assertThatThrownBy(() -> new CalibratedFusion.Bonuses(0.1, 2)).hasMessageContaining("tfidf=2");
    }
}
