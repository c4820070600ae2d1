package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.fusion.FusionMethod;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import io.poimen.memory.retrieval.fusion.FusionSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FusionReplayTest {
    private static FusionReplay.Dump dump() {
        Map<String, String> docs = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            docs.put("c" + i, "doc" + i);
        }
        List<FusionReplay.Query> queries = new ArrayList<>();
        for (int q = 0; q < 3; q++) {
            List<Hit> semantic = new ArrayList<>();
            List<Hit> lexical = new ArrayList<>();
            for (int k = 0; k < 20; k++) {
                semantic.add(new Hit("c" + (q * 20 + k), 0.9 - k * 0.01));
                lexical.add(new Hit("c" + (q * 20 + k), 20.0 - k));
            }
            queries.add(new FusionReplay.Query("q" + q, List.of(BranchResult.ok(Branch.SEMANTIC, semantic, 0),
                    BranchResult.ok(Branch.LEXICAL, lexical, 0)), Map.of("doc" + (q * 20), 1)));
        }
        return new FusionReplay.Dump("set", docs, queries);
    }

    private static BranchResult branch(FusionReplay.Query q, Branch b) {
        return q.branches().stream().filter(r -> r.branch() == b).findFirst().orElseThrow();
    }

    /**
     * A dump's own shares (the hub's) come first; a chunk they do not hold, such as one a noise variant borrows
     * from another question, takes the corpus's share when a corpus is given, else 0.
     */
    @Test
    void theDumpedSharesComeFirstAndTheCorpusFillsInTheChunksTheyDoNotHold() {
        FusionReplay.Query first = dump().queries().get(0);
        FusionReplay.Query asked = new FusionReplay.Query(first.id(), "pod crash", first.branches(), first.qrels(),
                Map.of("c0", 0.9));
        FusionReplay.Dump withoutCorpus = new FusionReplay.Dump("set", dump().docByChunk(), List.of(asked));
        FusionReplay.Dump withCorpus = withoutCorpus.withShares(new CorpusTermShares(List.of(
                new BeirDataset.Doc("doc0", "", "release notes"), new BeirDataset.Doc("doc5", "", "pod crash"))));

        assertThat(withoutCorpus.sharesFor(asked).applyAsDouble("c0")).isEqualTo(0.9);
        assertThat(withoutCorpus.sharesFor(asked).applyAsDouble("c5")).isZero();
        assertThat(withCorpus.sharesFor(asked).applyAsDouble("c0")).isEqualTo(0.9);
        assertThat(withCorpus.sharesFor(asked).applyAsDouble("c5")).isEqualTo(1.0);
    }

    /** Cut to a depth, each list keeps its first hits in order; a failed branch and the judgments stay. */
    @Test
    void theFirstHitsOfEachListAreWhatAHubAskedForThatDepthAnswers() {
        FusionReplay.Dump whole = dump();
        List<BranchResult> withFailure = new ArrayList<>(whole.queries().get(0).branches());
        withFailure.add(BranchResult.failed(Branch.TFIDF, "down", 0));
        FusionReplay.Query first = whole.queries().get(0);
        FusionReplay.Dump dump = new FusionReplay.Dump("set", whole.docByChunk(), List.of(new FusionReplay.Query(
                first.id(), first.text(), withFailure, first.qrels(), Map.of("c0", 0.5))));

        FusionReplay.Dump cut = FusionReplay.firstHits(dump, 5);

        FusionReplay.Query q = cut.queries().get(0);
        assertThat(branch(q, Branch.SEMANTIC).hits()).containsExactlyElementsOf(
                branch(first, Branch.SEMANTIC).hits().subList(0, 5));
        assertThat(branch(q, Branch.LEXICAL).hits()).hasSize(5);
        assertThat(branch(q, Branch.TFIDF).answered()).isFalse();
        assertThat(q.qrels()).isEqualTo(first.qrels());
        assertThat(q.shares()).containsEntry("c0", 0.5);
        assertThat(FusionReplay.firstHits(dump, 50).queries().get(0).branches()).isEqualTo(withFailure);
        assertThatThrownBy(() -> FusionReplay.firstHits(dump, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theNoiseVariantDrawsTheSemanticListFromTheCorpusAndKeepsEverythingElse() {
        FusionReplay.Dump d = dump();
        FusionReplay.Dump noise = FusionReplay.withNoiseSemantic(d);
        assertThat(noise.name()).isEqualTo("set~noise");
        assertThat(FusionReplay.ndcg10(d, "semantic")).isEqualTo(1.0);
        assertThat(FusionReplay.ndcg10(noise, "semantic")).isLessThan(0.5);
        for (int q = 0; q < 3; q++) {
            BranchResult before = branch(d.queries().get(q), Branch.SEMANTIC);
            BranchResult after = branch(noise.queries().get(q), Branch.SEMANTIC);
            assertThat(after.hits()).extracting(Hit::score).isEqualTo(before.hits().stream().map(Hit::score).toList());
            assertThat(after.hits()).extracting(Hit::chunkId).doesNotHaveDuplicates()
                    .allMatch(d.docByChunk()::containsKey)
                    .isNotEqualTo(before.hits().stream().map(Hit::chunkId).toList());
            assertThat(branch(noise.queries().get(q), Branch.LEXICAL)).isEqualTo(branch(d.queries().get(q),
                    Branch.LEXICAL));
        }
        // seeded: the same variant every run
        assertThat(FusionReplay.withNoiseSemantic(d).queries()).isEqualTo(noise.queries());
    }

    @Test
    void severalNoiseDrawsRepeatEveryQueryWithOtherRandomListsTheFirstDrawBeingTheOneDrawVariant() {
        FusionReplay.Dump d = dump();
        FusionReplay.Dump one = FusionReplay.withNoiseSemantic(d);
        FusionReplay.Dump three = FusionReplay.withNoiseSemantic(d, 3);
        assertThat(three.queries()).hasSize(9);
        assertThat(three.queries().subList(0, 3)).isEqualTo(one.queries());
        assertThat(three.queries()).extracting(FusionReplay.Query::id)
                .containsExactly("q0", "q1", "q2", "q0#1", "q1#1", "q2#1", "q0#2", "q1#2", "q2#2");
        for (int q = 0; q < 3; q++) {
            List<String> first = branch(three.queries().get(q), Branch.SEMANTIC).hits().stream()
                    .map(Hit::chunkId).toList();
            List<String> second = branch(three.queries().get(3 + q), Branch.SEMANTIC).hits().stream()
                    .map(Hit::chunkId).toList();
            assertThat(second).isNotEqualTo(first);
            assertThat(three.queries().get(3 + q).qrels()).isEqualTo(d.queries().get(q).qrels());
        }
        assertThatThrownBy(() -> FusionReplay.withNoiseSemantic(d, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("noise draws");
    }

    private static BranchResult list(Branch b, String... ids) {
        List<Hit> hits = new ArrayList<>();
        for (int k = 0; k < ids.length; k++) {
            hits.add(new Hit(ids[k], 10.0 - k));
        }
        return BranchResult.ok(b, hits, 0);
    }

    @Test
    void theLexicalNoiseVariantGivesEachQueryBothLexicalListsOfTheNextQueryThatMissesItsAnswerAndKeepsTheDenseList() {
        Map<String, String> docs = Map.of("a", "A", "b", "B", "c", "C", "x", "X", "y", "Y");
        // q0's answer is A; q1 shares A (not eligible for q0); q2 answers C and its lists never show A
        FusionReplay.Query q0 = new FusionReplay.Query("q0", List.of(list(Branch.SEMANTIC, "a", "x"),
                list(Branch.LEXICAL, "a", "y"), list(Branch.TFIDF, "a", "x")), Map.of("A", 1));
        FusionReplay.Query q1 = new FusionReplay.Query("q1", List.of(list(Branch.SEMANTIC, "b", "a"),
                list(Branch.LEXICAL, "b", "a"), list(Branch.TFIDF, "b")), Map.of("A", 1, "B", 2));
        FusionReplay.Query q2 = new FusionReplay.Query("q2", List.of(list(Branch.SEMANTIC, "c"),
                list(Branch.LEXICAL, "c", "x"), list(Branch.TFIDF, "c", "y")), Map.of("C", 1, "A", 0));
        FusionReplay.Dump d = new FusionReplay.Dump("set", docs, List.of(q0, q1, q2));
        FusionReplay.Dump v = FusionReplay.withLexicalNoise(d);
        assertThat(v.name()).isEqualTo("set~lexnoise");
        assertThat(v.queries()).extracting(FusionReplay.Query::id).containsExactly("q0", "q1", "q2");
        FusionReplay.Query n0 = v.queries().get(0);
        assertThat(n0.qrels()).isEqualTo(q0.qrels());
        assertThat(branch(n0, Branch.SEMANTIC)).isEqualTo(branch(q0, Branch.SEMANTIC));
        assertThat(branch(n0, Branch.LEXICAL)).isEqualTo(branch(q2, Branch.LEXICAL));
        assertThat(branch(n0, Branch.TFIDF)).isEqualTo(branch(q2, Branch.TFIDF));
        // q1 borrows from q2 (q0 shares its answer A); q2 (a grade-0 judgment is no answer) from q0
        assertThat(branch(v.queries().get(1), Branch.LEXICAL)).isEqualTo(branch(q2, Branch.LEXICAL));
        assertThat(branch(v.queries().get(2), Branch.TFIDF)).isEqualTo(branch(q0, Branch.TFIDF));
        // the lexical branches now miss while the dense one is as good as before
        assertThat(FusionReplay.ndcg10(v, "lexical")).isEqualTo(0.0);
        assertThat(FusionReplay.ndcg10(v, "semantic")).isEqualTo(FusionReplay.ndcg10(d, "semantic"));
    }

    @Test
    void aQueryNoOtherQueryCanMissIsLeftOutOfTheLexicalNoiseVariant() {
        Map<String, String> docs = Map.of("a", "A", "b", "B");
        FusionReplay.Query q0 = new FusionReplay.Query("q0", List.of(list(Branch.SEMANTIC, "a"),
                list(Branch.LEXICAL, "a", "b"), list(Branch.TFIDF, "a")), Map.of("A", 1));
        FusionReplay.Query q1 = new FusionReplay.Query("q1", List.of(list(Branch.SEMANTIC, "b"),
                list(Branch.LEXICAL, "b"), list(Branch.TFIDF, "b")), Map.of("B", 1));
        // q0's lists show B, so q1 has nothing to borrow; q0 borrows q1's
        FusionReplay.Dump v = FusionReplay.withLexicalNoise(new FusionReplay.Dump("two", docs, List.of(q0, q1)));
        assertThat(v.queries()).extracting(FusionReplay.Query::id).containsExactly("q0");
        assertThat(branch(v.queries().get(0), Branch.LEXICAL)).isEqualTo(branch(q1, Branch.LEXICAL));
    }

    @Test
    void thePerQueryBestTakesEachQuerysBestRankingAndIsAtLeastEveryOne() {
        // query 0: only the semantic order has the relevant doc first; query 1: only the lexical order
        Map<String, String> docs = Map.of("a", "A", "b", "B");
        List<FusionReplay.Query> queries = List.of(
                new FusionReplay.Query("q0", List.of(
                        BranchResult.ok(Branch.SEMANTIC, List.of(new Hit("a", 0.9), new Hit("b", 0.8)), 0),
                        BranchResult.ok(Branch.LEXICAL, List.of(new Hit("b", 9), new Hit("a", 8)), 0)),
                        Map.of("A", 1)),
                new FusionReplay.Query("q1", List.of(
                        BranchResult.ok(Branch.SEMANTIC, List.of(new Hit("a", 0.9), new Hit("b", 0.8)), 0),
                        BranchResult.ok(Branch.LEXICAL, List.of(new Hit("b", 9), new Hit("a", 8)), 0)),
                        Map.of("B", 1)));
        FusionReplay.Dump d = new FusionReplay.Dump("two", docs, queries);
        double second = 1 / (Math.log(3) / Math.log(2));
        assertThat(FusionReplay.ndcg10(d, "semantic")).isCloseTo((1 + second) / 2, within(1e-9));
        assertThat(FusionReplay.ndcg10(d, "lexical")).isCloseTo((1 + second) / 2, within(1e-9));
        assertThat(FusionReplay.perQueryBest(d, List.of("semantic", "lexical"), List.of(),
                FusionSettings.defaults())).isCloseTo(1.0, within(1e-9));
        assertThat(FusionReplay.perQueryBest(d, List.of("semantic"), List.of(), FusionSettings.defaults()))
                .isCloseTo(FusionReplay.ndcg10(d, "semantic"), within(1e-9));
        FusionMethod rrf = FusionMethods.of("rrf");
        assertThat(FusionReplay.perQueryBest(d, List.of(), List.of(rrf), FusionSettings.defaults()))
                .isCloseTo(FusionReplay.ndcg10(d, rrf, FusionSettings.defaults()), within(1e-9));
    }
}
