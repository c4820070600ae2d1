package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.RouteBranches.Wired;
import io.poimen.memory.retrieval.query.QueryRouter;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.VaultPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fusion expects exactly the branches the route wired and the plan chose. */
class QueryFusionTest {
    private final QueryFusion fusion = new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry()));

    private static PlannedQuery planned(String strategy, Set<Branch> branches) {
        return QueryValues.planned(strategy, branches, SearchScope.all());
    }

    private static BranchResult ok(Branch b, String... ids) {
        return BranchResult.ok(b, java.util.Arrays.stream(ids).map(id -> new Hit(id, 0.5)).toList(), 2);
    }

    @Test
    void aBranchTheRouteDoesNotWireIsNotExpected() {
        BranchAnswers answers = BranchAnswers.NONE.with(ok(Branch.SEMANTIC, "a#0", "b#0"))
                .with(ok(Branch.LEXICAL, "b#0"));
        FusedQuery q = fusion.fuse(planned("hybrid", QueryRouter.BUILT_IN), answers,
                List.of(new Wired(Branch.SEMANTIC, 0), new Wired(Branch.LEXICAL, 1)));
        assertThat(q.trace().degraded()).isEmpty();
        assertThat(q.expected()).containsExactly(Branch.SEMANTIC, Branch.LEXICAL);
        assertThat(q.fused()).extracting(c -> c.chunkId()).containsExactlyInAnyOrder("a#0", "b#0");
        assertThat(q.trace().timingsMs()).containsKeys("semantic", "lexical", "branches", "fusion")
                .doesNotContainKey("tfidf");
        assertThat(q.candidates()).isEqualTo(2);
        assertThat(q.returned()).containsEntry("semantic", 2).containsEntry("lexical", 1);
    }

    @Test
    void aWiredBranchThatIsLateFailedOrSilentIsNamedWithItsReason() {
        Branch recent = Branch.ofKey("recent");
        BranchAnswers answers = BranchAnswers.NONE.with(ok(Branch.SEMANTIC, "a#0"))
                .with(BranchResult.failed(Branch.LEXICAL, "IOException: connection refused", 4)).late(0);
        FusedQuery q = fusion.fuse(planned("hybrid", QueryRouter.BUILT_IN), answers,
                List.of(new Wired(Branch.TFIDF, 0), new Wired(Branch.SEMANTIC, 1), new Wired(Branch.LEXICAL, 2),
                        new Wired(recent, 3)));
        assertThat(q.trace().degraded()).containsEntry("tfidf", QueryFusion.LATE)
                .containsEntry("lexical", "IOException: connection refused")
                .containsEntry("recent", QueryFusion.NO_RESULT).doesNotContainKey("semantic");
        assertThat(q.fused()).extracting(c -> c.chunkId()).containsExactly("a#0");
    }

    /** A NaN cosine (a chunk stored with a zero vector) degrades the semantic branch; the others still answer. */
    @Test
    void aBranchWithAScoreThatIsNotANumberIsDegradedAndTheOthersAnswer() {
        BranchResult semantic = BranchResult.ok(Branch.SEMANTIC,
                List.of(new Hit("a#0", 0.8), new Hit("z#0", Double.NaN)), 3);
        assertThat(semantic.answered()).isFalse();
        assertThat(semantic.error()).isEqualTo("score of z#0 is not a finite number: NaN");
        assertThat(BranchResult.ok(Branch.LEXICAL, List.of(new Hit("b#0", Double.POSITIVE_INFINITY)), 1).answered())
                .isFalse();

        BranchAnswers answers = BranchAnswers.NONE.with(semantic).with(ok(Branch.LEXICAL, "b#0", "a#0"))
                .with(ok(Branch.TFIDF, "b#0"));
        FusedQuery q = fusion.fuse(planned("hybrid", QueryRouter.BUILT_IN), answers,
                List.of(new Wired(Branch.TFIDF, 0), new Wired(Branch.SEMANTIC, 1), new Wired(Branch.LEXICAL, 2)));
        assertThat(q.trace().degraded()).containsEntry("semantic", "score of z#0 is not a finite number: NaN");
        assertThat(q.fused()).extracting(c -> c.chunkId()).containsExactly("b#0", "a#0");
    }

    @Test
    void aBranchThePlanLeavesOutIsNotExpectedEvenIfWired() {
        BranchAnswers answers = BranchAnswers.NONE.with(ok(Branch.TFIDF, "a#0")).with(ok(Branch.LEXICAL, "a#0"));
        FusedQuery q = fusion.fuse(planned("lexical", Set.of(Branch.TFIDF, Branch.LEXICAL)), answers,
                List.of(new Wired(Branch.TFIDF, 0), new Wired(Branch.SEMANTIC, 1), new Wired(Branch.LEXICAL, 2),
                        new Wired(Branch.ofKey("recent"), 3)));
        assertThat(q.trace().degraded()).isEmpty();
        assertThat(q.expected()).containsExactly(Branch.TFIDF, Branch.LEXICAL);
    }

    @Test
    void aStepTimedInsideABranchGetsItsOwnEntry() {
        BranchAnswers answers = BranchAnswers.NONE.with(ok(Branch.SEMANTIC, "a#0").withStep("embedding", 7.5));
        FusedQuery q = fusion.fuse(planned("semantic", Set.of(Branch.SEMANTIC)), answers,
                List.of(new Wired(Branch.SEMANTIC, 0)));
        assertThat(q.trace().timingsMs()).containsEntry("embedding", 7.5).containsEntry("semantic", 2.0);
    }

    /** BM25 and TF-IDF agree on d0..; the dense list puts its own chunks first, then half of theirs. */
    private static BranchAnswers denseFirst() {
        List<Hit> semantic = new java.util.ArrayList<>();
        List<Hit> lexical = new java.util.ArrayList<>();
        List<Hit> tfidf = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            semantic.add(new Hit(i < 5 ? "own#" + i : "d#" + (i - 5), 0.95 - i * 0.01 - (i < 5 ? 0 : 0.2)));
            lexical.add(new Hit("d#" + i, 30 - i * 0.9));
            tfidf.add(new Hit("d#" + i, 9 - i * 0.2));
        }
        return BranchAnswers.NONE.with(BranchResult.ok(Branch.SEMANTIC, semantic, 1))
                .with(BranchResult.ok(Branch.LEXICAL, lexical, 1)).with(BranchResult.ok(Branch.TFIDF, tfidf, 1));
    }

    @Test
    void aQueryInAScriptTheDefaultModelDoesNotReadIsFusedWithoutTheDenseList() {
        List<Wired> wired = List.of(new Wired(Branch.TFIDF, 0), new Wired(Branch.SEMANTIC, 1),
                new Wired(Branch.LEXICAL, 2));
        FusedQuery english = fusion.fuse(QueryValues.planned("hybrid", QueryRouter.BUILT_IN, SearchScope.all(),
                "why does the pod restart after it was killed"), denseFirst(), wired);
        FusedQuery japanese = fusion.fuse(QueryValues.planned("hybrid", QueryRouter.BUILT_IN, SearchScope.all(),
                "ポッドが再起動を繰り返す理由は何ですか"), denseFirst(), wired);
        assertThat(english.fused().get(0).chunkId()).isEqualTo("own#0");
        assertThat(english.fused().get(0).weights().get("semantic")).isGreaterThan(0.5);
        assertThat(japanese.fused().get(0).chunkId()).isEqualTo("d#0");
        assertThat(japanese.fused().get(0).weights()).containsEntry("semantic", 0.0);
        assertThat(japanese.fused().get(0).reason()).contains("query script not read by the embedding model");
        // a model that declares the script reads the same question
        FusedQuery declared = new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry()),
                io.poimen.memory.index.ModelScripts.of(List.of("latin", "katakana", "hiragana", "han")), null)
                .fuse(QueryValues.planned("hybrid", QueryRouter.BUILT_IN, SearchScope.all(),
                        "ポッドが再起動を繰り返す理由は何ですか"), denseFirst(), wired);
        assertThat(declared.fused().get(0).chunkId()).isEqualTo("own#0");
    }

    /**
     * The hub's fusion reads each chunk's share of the query's terms from the TF-IDF index: 30 chunks BM25 and
     * TF-IDF agree on and 30 the dense list returns instead (no chunk shared, so the agreement gate cuts it), among
     * 40 others. When the dense list's chunks hold the question's words, the gate leaves it its weight; when they
     * are about something else, it stays cut.
     */
    @Test
    void theGateKeepsACutDenseListWhoseChunksHoldTheQuestionsWords() {
        String question = "why does the pod restart after it was killed";
        FusedQuery covering = fuseOverIndex(question, "the pod restart counter after the kernel killed it");
        FusedQuery elsewhere = fuseOverIndex(question, "quarterly revenue grew in the northern sales region");
        assertThat(covering.fused().get(0).chunkId()).startsWith("projects/poimen/own-");
        assertThat(covering.fused().get(0).weights().get("semantic")).isGreaterThan(0.5);
        assertThat(covering.fused().get(0).reason()).contains("semantic kept by the gate");
        assertThat(elsewhere.fused().get(0).chunkId()).startsWith("projects/poimen/agreed-");
        assertThat(elsewhere.fused().get(0).weights().get("semantic")).isLessThan(0.01);
        assertThat(elsewhere.fused().get(0).reason()).doesNotContain("kept by the gate");
    }

    private static FusedQuery fuseOverIndex(String question, String denseText) {
        return new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry()),
                EmbeddingModelChoice.defaultChoice().scripts(), coverageIndex(denseText))
                .fuse(QueryValues.planned("hybrid", QueryRouter.BUILT_IN, SearchScope.all(), question),
                        coverageLists(), List.of(new Wired(Branch.TFIDF, 0), new Wired(Branch.SEMANTIC, 1),
                                new Wired(Branch.LEXICAL, 2)));
    }

    /**
     * 30 chunks BM25 and TF-IDF agree on ({@code agreed-i}, about a pod restarted after it was killed), 30 the dense
     * list returns instead ({@code own-i}, holding {@code denseText}), 40 release notes.
     */
    static TfIdfIndex coverageIndex(String denseText) {
        TfIdfIndex index = new TfIdfIndex(3.0);
        for (int i = 0; i < 30; i++) {
            index.add(chunk("projects/poimen/agreed-" + i + ".md", "a pod restart loop after the container was killed"));
            index.add(chunk("projects/poimen/own-" + i + ".md", denseText));
        }
        for (int i = 0; i < 40; i++) {
            index.add(chunk("projects/poimen/notes-" + i + ".md", "release notes of gateway version " + i));
        }
        return index;
    }

    /** The branch lists over {@link #coverageIndex}: no chunk of the dense list in the other two. */
    static BranchAnswers coverageLists() {
        List<Hit> semantic = new ArrayList<>();
        List<Hit> lexical = new ArrayList<>();
        List<Hit> tfidf = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            semantic.add(new Hit("projects/poimen/own-" + i + ".md#0", 0.8 - i * 0.01));
            lexical.add(new Hit("projects/poimen/agreed-" + i + ".md#0", 30 - i * 0.9));
            tfidf.add(new Hit("projects/poimen/agreed-" + i + ".md#0", 9 - i * 0.2));
        }
        return BranchAnswers.NONE.with(BranchResult.ok(Branch.SEMANTIC, semantic, 1))
                .with(BranchResult.ok(Branch.LEXICAL, lexical, 1)).with(BranchResult.ok(Branch.TFIDF, tfidf, 1));
    }

    private static Chunk chunk(String path, String text) {
        return new Chunk(Chunk.idOf(path, 0), path,
                VaultPaths.projectOf(path), 0, "Note", List.of("Note"), text,
                text.split("\\s+").length, null, List.of());
    }
}
