package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.testsupport.ModelFolders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdaptiveFusionTest {
    private final FusionSettings settings = FusionSettings.defaults().withMethod(AdaptiveFusion.NAME);
    private final AdaptiveFusion fusion = new AdaptiveFusion();

    private static BranchResult ok(Branch b, List<Hit> hits) {
        return BranchResult.ok(b, hits, 1);
    }

    /** n hits named prefix0..prefix(n-1), scores falling linearly from top by step. */
    private static List<Hit> list(String prefix, int n, double top, double step) {
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hits.add(new Hit(prefix + i, top - i * step));
        }
        return hits;
    }

    @Test
    void aBranchWhoseTopAgreesWithNoOtherLosesItsWeight() {
        // BM25 and TF-IDF find the same documents; the model's cosines point elsewhere (it cannot read the text)
        List<FusedCandidate> fused = fusion.fuse(List.of(
                ok(Branch.LEXICAL, list("d", 30, 30.0, 0.9)),
                ok(Branch.TFIDF, list("d", 30, 9.0, 0.2)),
                ok(Branch.SEMANTIC, list("noise", 30, 0.55, 0.008))), settings);
        FusedCandidate top = fused.get(0);
        assertThat(top.chunkId()).isEqualTo("d0");
        assertThat(top.weights().get("semantic")).isLessThan(0.01);
        assertThat(top.weights().get("lexical")).isGreaterThan(0.99);
        assertThat(fused.subList(0, 10)).extracting(FusedCandidate::chunkId).allMatch(id -> id.startsWith("d"));
        assertThat(top.reason()).contains("adaptive weights").contains("semantic 0.00").contains("gate 0.00");
    }

    /** A semantic list whose first {@code shared} ids are d0.. (the lexical lists' top), the rest its own ids. */
    private static List<Hit> semanticSharing(int shared) {
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            hits.add(new Hit(i < shared ? "d" + i : "own" + i, 0.8 - i * 0.01));
        }
        return hits;
    }

    private double semanticWeightSharing(int shared) {
        return fusion.fuse(List.of(
                ok(Branch.LEXICAL, list("d", 30, 30.0, 0.9)),
                ok(Branch.TFIDF, list("d", 30, 9.0, 0.2)),
                ok(Branch.SEMANTIC, semanticSharing(shared))), settings).get(0).weights().get("semantic");
    }

    @Test
    void theDefaultGateIsASwitchAroundHalfTheOthersAgreement() {
        // BM25 and TF-IDF agree fully; the semantic list starts with more or fewer of their documents, then
        // returns its own. Ungated, the semantic weight would be 0.29 / 0.39.
        double open = 0.29 / 0.39;
        double most = semanticWeightSharing(24);
        double half = semanticWeightSharing(6);
        double little = semanticWeightSharing(2);
        assertThat(most).isCloseTo(open, within(1e-9));
        assertThat(little).isLessThan(0.01);
        assertThat(half).isLessThan(most).isGreaterThan(little);
        assertThat(AdaptiveFusion.Gate.DEFAULTS).isEqualTo(new AdaptiveFusion.Gate(0.5, 8));
    }

    @Test
    void withoutTheGateTheSameListsFollowTheCosines() {
        // the same lists as above with the gate off (power 0): the calibrated shape, semantic first
        List<FusedCandidate> fused = new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS,
                new AdaptiveFusion.Gate(0.8, 0)).fuse(List.of(
                ok(Branch.LEXICAL, list("d", 30, 30.0, 0.9)),
                ok(Branch.TFIDF, list("d", 30, 9.0, 0.2)),
                ok(Branch.SEMANTIC, list("noise", 30, 0.55, 0.008))), settings);
        assertThat(fused.get(0).chunkId()).isEqualTo("noise0");
    }

    @Test
    void agreeingBranchesRankAsTheCalibratedFusion() {
        List<Hit> semantic = List.of(new Hit("a", 0.80), new Hit("b", 0.78), new Hit("c", 0.70), new Hit("e", 0.50));
        List<Hit> lexical = List.of(new Hit("b", 12.0), new Hit("a", 6.0), new Hit("c", 4.0), new Hit("f", 2.0));
        List<BranchResult> results = List.of(ok(Branch.SEMANTIC, semantic), ok(Branch.LEXICAL, lexical));
        List<FusedCandidate> fused = fusion.fuse(results, settings);
        assertThat(fused).extracting(FusedCandidate::chunkId)
                .isEqualTo(new CalibratedFusion().fuse(results, settings).stream().map(FusedCandidate::chunkId).toList());
        // weights: cosine spread 0.30 and lexical bonus 0.10, both gates open, divided by their sum
        assertThat(fused.get(0).weights().get("semantic")).isCloseTo(0.75, within(1e-9));
        assertThat(fused.get(0).weights().get("lexical")).isCloseTo(0.25, within(1e-9));
        FusedCandidate b = fused.stream().filter(c -> c.chunkId().equals("b")).findFirst().orElseThrow();
        assertThat(b.components().get(Branch.LEXICAL).weight()).isCloseTo(0.25, within(1e-9));
        assertThat(b.score()).isCloseTo(0.75 * (0.78 - 0.50) / 0.30 + 0.25, within(1e-9));
        assertThat(b.fusion()).isEqualTo("adaptive");
    }

    @Test
    void flatCosinesCountForLittle() {
        // every cosine the same: the model tells nothing apart, so BM25 decides
        List<FusedCandidate> fused = fusion.fuse(List.of(
                ok(Branch.SEMANTIC, List.of(new Hit("a", 0.6), new Hit("b", 0.6), new Hit("c", 0.6))),
                ok(Branch.LEXICAL, List.of(new Hit("c", 9.0), new Hit("a", 3.0), new Hit("b", 1.0)))), settings);
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("c", "a", "b");
        assertThat(fused.get(0).weights()).containsEntry("semantic", 0.0).containsEntry("lexical", 1.0);
    }

    @Test
    void aFailedOrEmptyBranchTakesNoPart() {
        List<Hit> semantic = List.of(new Hit("a", 0.9), new Hit("b", 0.5));
        List<FusedCandidate> withFailure = fusion.fuse(List.of(ok(Branch.SEMANTIC, semantic),
                BranchResult.failed(Branch.LEXICAL, "engine down", 3), ok(Branch.TFIDF, List.of())), settings);
        assertThat(withFailure).extracting(FusedCandidate::chunkId).containsExactly("a", "b");
        assertThat(withFailure.get(0).weights()).containsOnlyKeys("semantic").containsEntry("semantic", 1.0);
        assertThat(withFailure.get(0).components()).containsOnlyKeys(Branch.SEMANTIC);
        assertThat(fusion.fuse(List.of(BranchResult.failed(Branch.SEMANTIC, "timeout", 1)), settings)).isEmpty();
        assertThat(fusion.fuse(List.of(), settings)).isEmpty();
    }

    @Test
    void withoutTheSemanticBranchItIsTheWeightedFusion() {
        List<BranchResult> results = List.of(
                ok(Branch.LEXICAL, List.of(new Hit("x", 5.0), new Hit("y", 1.0))),
                ok(Branch.TFIDF, List.of(new Hit("y", 3.0), new Hit("x", 2.0))),
                BranchResult.failed(Branch.SEMANTIC, "down", 1));
        assertThat(fusion.fuse(results, settings)).isEqualTo(new WeightedFusion().fuse(results, settings));
    }

    @Test
    void disjointListsWithNoThirdBranchKeepTheirScales() {
        // semantic and BM25 share nothing and no third branch answered: nothing tells which one is noise
        List<FusedCandidate> fused = fusion.fuse(List.of(
                ok(Branch.SEMANTIC, List.of(new Hit("s1", 0.9), new Hit("s2", 0.5))),
                ok(Branch.LEXICAL, List.of(new Hit("l1", 8.0), new Hit("l2", 1.0)))), settings);
        assertThat(fused.get(0).weights().get("semantic")).isCloseTo(0.4 / 0.5, within(1e-9));
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("s1", "l1", "l2", "s2");
    }

    @Test
    void aBranchIsOnlyCutWhenTheOthersAgreeWithEachOther() {
        // BM25 and TF-IDF disagree with each other as much as with the cosines: no majority, so no gate
        List<FusedCandidate> fused = fusion.fuse(List.of(
                ok(Branch.LEXICAL, list("l", 30, 30.0, 0.9)),
                ok(Branch.TFIDF, list("t", 30, 9.0, 0.2)),
                ok(Branch.SEMANTIC, list("s", 30, 0.75, 0.01))), settings);
        assertThat(fused.get(0).chunkId()).isEqualTo("s0");
        assertThat(fused.get(0).weights().get("semantic")).isCloseTo(0.29 / 0.39, within(1e-9));
        assertThat(fused.get(0).reason()).doesNotContain("gate");
    }

    @Test
    void tiesGoByChunkIdAndTheOrderOfTheBranchesDoesNotMatter() {
        List<BranchResult> results = new ArrayList<>(List.of(
                ok(Branch.SEMANTIC, List.of(new Hit("b", 0.9), new Hit("a", 0.9), new Hit("c", 0.4))),
                ok(Branch.LEXICAL, List.of(new Hit("a", 2.0), new Hit("b", 2.0), new Hit("c", 1.0))),
                ok(Branch.TFIDF, List.of(new Hit("c", 1.0), new Hit("a", 0.5), new Hit("b", 0.5)))));
        List<FusedCandidate> first = fusion.fuse(results, settings);
        assertThat(first.get(0).score()).isEqualTo(first.get(1).score());
        assertThat(first).extracting(FusedCandidate::chunkId).startsWith("a", "b");
        Random random = new Random(7);
        for (int i = 0; i < 5; i++) {
            Collections.shuffle(results, random);
            assertThat(fusion.fuse(results, settings)).isEqualTo(first);
        }
    }

    @Test
    void aBranchAnsweringTwiceIsRefused() {
        assertThatThrownBy(() -> fusion.fuse(List.of(ok(Branch.LEXICAL, List.of(new Hit("a", 1))),
                ok(Branch.LEXICAL, List.of(new Hit("b", 1)))), settings))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lexical");
    }

    @Test
    void gateParametersAreChecked() {
        assertThatThrownBy(() -> new AdaptiveFusion.Gate(0, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("full_ratio");
        assertThatThrownBy(() -> new AdaptiveFusion.Gate(0.3, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AdaptiveFusion.Gate(0.3, 65)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rankOverlapIsOneForTheSameTopAndZeroForDisjointTops() {
        List<String> a = list("x", 120, 1, 0.001).stream().map(Hit::chunkId).toList();
        List<String> b = list("y", 120, 1, 0.001).stream().map(Hit::chunkId).toList();
        assertThat(RankOverlap.of(a, a)).isCloseTo(1.0, within(1e-9));
        assertThat(RankOverlap.of(a, b)).isZero();
        List<String> swapped = new ArrayList<>(a);
        Collections.swap(swapped, 0, 1);
        double near = RankOverlap.of(a, swapped);
        List<String> late = new ArrayList<>(b.subList(0, 60));
        late.addAll(a.subList(0, 5));
        assertThat(near).isBetween(0.8, 1.0).isLessThan(1.0);
        assertThat(RankOverlap.of(a, late)).isBetween(0.0, 0.1); // sharing only far down weighs little
        assertThat(RankOverlap.of(a, swapped)).isEqualTo(RankOverlap.of(swapped, a));
    }

    /**
     * Lists of a model that packs its cosines tightly (c' = 0.7 + 0.25·c, as E5 next to MiniLM): with bonuses in
     * spread units both fusions rank exactly as for the spread-out model; in cosine units the same bonus
     * outweighs the packed model's list and reorders it.
     */
    @Test
    void bonusesInSpreadUnitsRankTheSameWhateverTheModelsCosineScale() {
        Random random = new Random(7);
        for (int trial = 0; trial < 50; trial++) {
            List<Hit> semantic = new ArrayList<>();
            List<Hit> packed = new ArrayList<>();
            double c = 0.8;
            for (int i = 0; i < 40; i++) {
                c -= random.nextDouble() * 0.02;
                semantic.add(new Hit("s" + random.nextInt(60), c));
            }
            semantic = CandidateAssembly.firstOccurrences(semantic);
            semantic.forEach(h -> packed.add(new Hit(h.chunkId(), 0.7 + 0.25 * h.score())));
            List<Hit> lexical = new ArrayList<>();
            double b = 20;
            for (int i = 0; i < 40; i++) {
                b -= random.nextDouble();
                lexical.add(new Hit("s" + random.nextInt(60), b));
            }
            lexical = CandidateAssembly.firstOccurrences(lexical);
            List<Hit> tfidf = lexical.subList(0, lexical.size() / 2);
            CalibratedFusion.Bonuses spread = new CalibratedFusion.Bonuses(0.2, 0.05).withUnit(CalibratedFusion.Unit.SPREAD);
            for (FusionMethod m : List.of(new AdaptiveFusion(spread, AdaptiveFusion.Gate.DEFAULTS),
                    new CalibratedFusion(spread))) {
                assertThat(ids(m, semantic, lexical, tfidf)).as(m.name()).isEqualTo(ids(m, packed, lexical, tfidf));
            }
        }
        // the cosine unit: a fixed bonus moves a packed list more than a spread one
        List<Hit> semantic = list("s", 20, 0.8, 0.02);
        List<Hit> packed = semantic.stream().map(h -> new Hit(h.chunkId(), 0.7 + 0.25 * h.score())).toList();
        List<Hit> lexical = new ArrayList<>(); // BM25 ranks the semantic list upside down: s19 first
        for (int i = 0; i < 20; i++) {
            lexical.add(new Hit("s" + (19 - i), 20.0 - i));
        }
        AdaptiveFusion cosine = new AdaptiveFusion(new CalibratedFusion.Bonuses(0.2, 0), AdaptiveFusion.Gate.DEFAULTS);
        assertThat(ids(cosine, semantic, lexical, List.of())).isNotEqualTo(ids(cosine, packed, lexical, List.of()));
    }

    /**
     * {@code auto} is a property of the model: cosine for the one the bonuses were fitted on, spread for any other
     * (a folder model too, even one holding MiniLM's own files). E5's packed list then fuses as under explicit
     * spread, which differs from cosine on lists where BM25 ranks the semantic list upside down.
     */
    @Test
    void autoIsCosineForMiniLmAndSpreadForEveryOtherModelAndFusesAsTheUnitItResolvesTo(@TempDir Path dir) {
        EmbeddingModelChoice minilm = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q;
        EmbeddingModelChoice folder = EmbeddingModelChoice.of(ModelFolders.copyOf(minilm, dir.resolve("m"),
                ModelFolders.descriptorOf(minilm, "team-model", "mean")).toString());
        CalibratedFusion.Unit auto = CalibratedFusion.Unit.of("auto");
        assertThat(auto.forModel(minilm)).isEqualTo(CalibratedFusion.Unit.COSINE);
        assertThat(auto.forModel(EmbeddingModelChoice.E5_SMALL_V2_Q)).isEqualTo(CalibratedFusion.Unit.SPREAD);
        assertThat(auto.forModel(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q)).isEqualTo(CalibratedFusion.Unit.SPREAD);
        assertThat(auto.forModel(folder)).isEqualTo(CalibratedFusion.Unit.SPREAD);
        for (CalibratedFusion.Unit explicit : List.of(CalibratedFusion.Unit.COSINE, CalibratedFusion.Unit.SPREAD)) {
            assertThat(explicit.forModel(EmbeddingModelChoice.E5_SMALL_V2_Q)).isEqualTo(explicit);
            assertThat(explicit.forModel(minilm)).isEqualTo(explicit);
        }

        List<Hit> packed = list("s", 20, 0.8, 0.02).stream().map(h -> new Hit(h.chunkId(), 0.7 + 0.25 * h.score()))
                .toList();
        List<Hit> lexical = new ArrayList<>(); // BM25 ranks the semantic list upside down: s19 first
        for (int i = 0; i < 20; i++) {
            lexical.add(new Hit("s" + (19 - i), 20.0 - i));
        }
        CalibratedFusion.Bonuses configured = new CalibratedFusion.Bonuses(0.1, 0).withUnit(auto);
        CalibratedFusion.Bonuses e5 = configured.withUnit(auto.forModel(EmbeddingModelChoice.E5_SMALL_V2_Q));
        CalibratedFusion.Bonuses spread = configured.withUnit(CalibratedFusion.Unit.SPREAD);
        CalibratedFusion.Bonuses cosine = configured.withUnit(CalibratedFusion.Unit.COSINE);
        List<String> underAuto = ids(new AdaptiveFusion(e5, AdaptiveFusion.Gate.DEFAULTS), packed, lexical, List.of());
        assertThat(underAuto).isEqualTo(ids(new AdaptiveFusion(spread, AdaptiveFusion.Gate.DEFAULTS), packed, lexical,
                List.of()));
        assertThat(underAuto).isNotEqualTo(ids(new AdaptiveFusion(cosine, AdaptiveFusion.Gate.DEFAULTS), packed,
                lexical, List.of()));
        // unresolved, auto is not silently read as one unit or the other
        assertThatThrownBy(() -> ids(new CalibratedFusion(configured), packed, lexical, List.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("auto");
    }

    @Test
    void theBonusUnitIsCosineOrSpread() {
        assertThat(CalibratedFusion.Unit.of(" Spread ")).isEqualTo(CalibratedFusion.Unit.SPREAD);
        assertThat(CalibratedFusion.Bonuses.DEFAULTS.unit()).isEqualTo(CalibratedFusion.Unit.COSINE);
        assertThatThrownBy(() -> CalibratedFusion.Unit.of("percent")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bonus_unit must be auto, cosine or spread, got percent");
    }

    private List<String> ids(FusionMethod m, List<Hit> semantic, List<Hit> lexical, List<Hit> tfidf) {
        List<BranchResult> results = new ArrayList<>(List.of(ok(Branch.SEMANTIC, semantic), ok(Branch.LEXICAL, lexical)));
        if (!tfidf.isEmpty()) {
            results.add(ok(Branch.TFIDF, tfidf));
        }
        return m.fuse(results, settings).stream().map(FusedCandidate::chunkId).toList();
    }
    /**
     * A question that quotes its passage: BM25's first hit (q0) stands far above the rest of its list, TF-IDF
     * agrees, and the model ranks nine neighbours of its own (s0..s8) first, with a wide cosine spread, then q0 and BM25's
     * other hits.
     */
    private static List<BranchResult> quotedPassage(double secondBm25) {
        List<Hit> lexical = new ArrayList<>(List.of(new Hit("q0", 30.0), new Hit("d1", secondBm25)));
        for (int i = 2; i < 30; i++) {
            lexical.add(new Hit("d" + i, 10.0 - i * 0.2));
        }
        List<Hit> semantic = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            semantic.add(new Hit(i == 9 ? "q0" : i < 9 ? "s" + i : "d" + (i - 9), 0.8 - i * 0.02));
        }
        List<Hit> tfidf = new ArrayList<>(lexical.subList(0, 20).stream().map(h -> new Hit(h.chunkId(), h.score() / 3))
                .toList());
        return List.of(ok(Branch.LEXICAL, lexical), ok(Branch.TFIDF, tfidf), ok(Branch.SEMANTIC, semantic));
    }

    private static AdaptiveFusion withLead(double lead) {
        return new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS, new AdaptiveFusion.Gate(0.5, 8, lead));
    }

    @Test
    void aClearBm25WinnerGoesFirstWithTheLexicalLead() {
        List<BranchResult> lists = quotedPassage(11.0); // gap (30 - 11) / (30 - 4.4) = 0.74
        assertThat(fusion.fuse(lists, settings).get(0).chunkId()).as("off by default: the cosines decide").isEqualTo("s0");
        List<FusedCandidate> led = withLead(0.5).fuse(lists, settings);
        assertThat(led.get(0).chunkId()).isEqualTo("q0");
        assertThat(led.get(0).score()).isEqualTo(1.0);
        assertThat(led.get(1).score()).isLessThan(1.0);
        assertThat(led.get(0).reason()).contains("lexical lead q0 (gap 0.74)");
        // only the leader moves: the rest keep the order of the fusion without the lead
        List<String> rest = fusion.fuse(lists, settings).stream().map(FusedCandidate::chunkId)
                .filter(id -> !id.equals("q0")).toList();
        assertThat(led.subList(1, led.size())).extracting(FusedCandidate::chunkId).containsExactlyElementsOf(rest);
    }

    @Test
    void aBm25TopCloseToItsSecondDoesNotLead() {
        List<BranchResult> lists = quotedPassage(28.0); // gap (30 - 28) / (30 - 4.4) = 0.08
        List<FusedCandidate> led = withLead(0.5).fuse(lists, settings);
        assertThat(led).extracting(FusedCandidate::chunkId)
                .containsExactlyElementsOf(fusion.fuse(lists, settings).stream().map(FusedCandidate::chunkId).toList());
        assertThat(led.get(0).reason()).doesNotContain("lexical lead");
    }

    @Test
    void aBm25ListTheGateLeavesOutDoesNotLead() {
        // the model and TF-IDF agree on d0..; BM25 alone answers elsewhere, with one clear winner
        List<Hit> lexical = new ArrayList<>(List.of(new Hit("x0", 30.0)));
        lexical.addAll(list("x", 29, 5.0, 0.1).subList(1, 29));
        List<FusedCandidate> led = withLead(0.1).fuse(List.of(ok(Branch.LEXICAL, lexical),
                ok(Branch.TFIDF, list("d", 30, 9.0, 0.2)), ok(Branch.SEMANTIC, list("d", 30, 0.8, 0.01))), settings);
        assertThat(led.get(0).weights().get("lexical")).isLessThan(0.01);
        assertThat(led.get(0).chunkId()).isEqualTo("d0");
        assertThat(led.get(0).reason()).doesNotContain("lexical lead");
    }

    @Test
    void theLexicalLeadIsAShareOfTheRange() {
        assertThat(new AdaptiveFusion.Gate(0.5, 8).lexicalLead()).isZero();
        assertThatThrownBy(() -> new AdaptiveFusion.Gate(0.5, 8, 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lexical_lead must be in [0, 1]");
        assertThatThrownBy(() -> new AdaptiveFusion.Gate(0.5, 8, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AdaptiveFusion.leadGap(list("d", 1, 3.0, 0))).isZero();
        assertThat(AdaptiveFusion.leadGap(List.of(new Hit("a", 2.0), new Hit("b", 2.0)))).isZero();
        assertThat(AdaptiveFusion.leadGap(List.of(new Hit("a", 3.0), new Hit("b", 2.0), new Hit("c", 1.0))))
                .isEqualTo(0.5, within(1e-12));
    }

    /** The semantic list agrees with BM25 and TF-IDF on half its top but puts its own chunks first. */
    private static List<BranchResult> denseFirstLists() {
        List<Hit> semantic = new ArrayList<>(list("own", 5, 0.95, 0.01));
        semantic.addAll(list("d", 25, 0.7, 0.01));
        return List.of(ok(Branch.LEXICAL, list("d", 30, 30.0, 0.9)), ok(Branch.TFIDF, list("d", 30, 9.0, 0.2)),
                ok(Branch.SEMANTIC, semantic));
    }

    @Test
    void aQueryTheModelCannotReadGivesTheSemanticBranchNoWeight() {
        AdaptiveFusion.Gate gate = AdaptiveFusion.Gate.DEFAULTS;
        assertThat(gate.modelScripts()).isTrue();
        List<FusedCandidate> read = new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS, gate, true)
                .fuse(denseFirstLists(), settings);
        List<FusedCandidate> unread = new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS, gate, false)
                .fuse(denseFirstLists(), settings);
        // read: the gate keeps the dense list and its own chunks lead
        assertThat(read.get(0).chunkId()).isEqualTo("own0");
        assertThat(read.get(0).weights().get("semantic")).isGreaterThan(0.5);
        // not read: BM25's order, the weights of the other branches as the adaptive rules give them
        assertThat(unread.get(0).weights()).containsEntry("semantic", 0.0).containsEntry("lexical", 1.0)
                .containsEntry("tfidf", 0.0);
        assertThat(unread.subList(0, 10)).extracting(FusedCandidate::chunkId)
                .containsExactly("d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9");
        assertThat(unread.get(0).reason()).contains("semantic 0.00").contains("query script not read");
        assertThat(read.get(0).reason()).doesNotContain("query script not read");
    }

    /** The plan left the semantic branch out for the query's script: BM25 and TF-IDF share as beside it. */
    @Test
    void withoutTheDenseListOfAnUnreadQueryTheOtherBranchesShareAsBesideIt() {
        List<BranchResult> lexicalOnly = denseFirstLists().stream()
                .filter(r -> r.branch() != Branch.SEMANTIC).toList();
        for (CalibratedFusion.Unit unit : List.of(CalibratedFusion.Unit.COSINE, CalibratedFusion.Unit.SPREAD)) {
            CalibratedFusion.Bonuses bonuses = CalibratedFusion.Bonuses.DEFAULTS.withUnit(unit);
            List<FusedCandidate> without = new AdaptiveFusion(bonuses, AdaptiveFusion.Gate.DEFAULTS, false)
                    .fuse(lexicalOnly, settings);
            List<FusedCandidate> beside = new AdaptiveFusion(bonuses, AdaptiveFusion.Gate.DEFAULTS, false)
                    .fuse(denseFirstLists(), settings);
            assertThat(without.get(0).weights()).containsEntry("lexical", 1.0).containsEntry("tfidf", 0.0)
                    .doesNotContainKey("semantic");
            assertThat(without).extracting(FusedCandidate::chunkId).isEqualTo(beside.stream()
                    .map(FusedCandidate::chunkId).filter(id -> id.startsWith("d")).toList());
            assertThat(without.get(0).reason()).contains("semantic branch not run: query script not read");
        }
        // a semantic branch that is down for a query the model reads: the weighted fusion, as before
        assertThat(new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS, AdaptiveFusion.Gate.DEFAULTS, true)
                .fuse(lexicalOnly, settings).get(0).fusion()).isEqualTo(WeightedFusion.NAME);
    }

    @Test
    void withModelScriptsOffTheQueryScriptIsNotLookedAt() {
        AdaptiveFusion.Gate off = new AdaptiveFusion.Gate(0.5, 8, 0, false);
        List<FusedCandidate> unread = new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS, off, false)
                .fuse(denseFirstLists(), settings);
        assertThat(unread).extracting(FusedCandidate::chunkId).isEqualTo(new AdaptiveFusion()
                .fuse(denseFirstLists(), settings).stream().map(FusedCandidate::chunkId).toList());
        assertThat(unread.get(0).chunkId()).isEqualTo("own0");
    }

    @Test
    void aSemanticListAloneKeepsItsSayWhateverTheScript() {
        List<FusedCandidate> fused = new AdaptiveFusion(CalibratedFusion.Bonuses.DEFAULTS,
                AdaptiveFusion.Gate.DEFAULTS, false).fuse(List.of(ok(Branch.SEMANTIC, list("s", 5, 0.9, 0.1)),
                BranchResult.failed(Branch.LEXICAL, "down", 1)), settings);
        assertThat(fused).extracting(FusedCandidate::chunkId).containsExactly("s0", "s1", "s2", "s3", "s4");
        assertThat(fused.get(0).weights()).containsEntry("semantic", 1.0);
    }
}
