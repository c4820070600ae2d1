package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.index.Hit;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.RouteBranches.Wired;
import io.poimen.memory.retrieval.query.QueryRouter;
import io.poimen.memory.retrieval.query.RoutePlan;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fusion step expects exactly the branches the route wired and the plan chose. */
class QueryFusionTest {
    private final QueryFusion fusion = new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry()),
            new RouteBranches());

    private static QueryContext context(String strategy, Set<Branch> planned) {
        QueryContext ctx = new QueryContext(
                new QueryRequest("poimen", "why do pods crash", null, null, null, null, null, null, null),
                RetrievalSettings.defaults());
        ctx.plan = new RoutePlan(strategy, planned, false, "test");
        return ctx;
    }

    private static BranchResult ok(Branch b, String... ids) {
        return BranchResult.ok(b, java.util.Arrays.stream(ids).map(id -> new Hit(id, 0.5)).toList(), 2);
    }

    @Test
    void aBranchTheRouteDoesNotWireIsNotExpected() {
        QueryContext ctx = context("hybrid", QueryRouter.BUILT_IN);
        ctx.answer(ok(Branch.SEMANTIC, "a#0", "b#0"));
        ctx.answer(ok(Branch.LEXICAL, "b#0"));
        fusion.fuse(ctx, List.of(new Wired(Branch.SEMANTIC, 0), new Wired(Branch.LEXICAL, 1)));
        assertThat(ctx.degraded).isEmpty();
        assertThat(ctx.expected).containsExactly(Branch.SEMANTIC, Branch.LEXICAL);
        assertThat(ctx.fused).extracting(c -> c.chunkId()).containsExactlyInAnyOrder("a#0", "b#0");
        assertThat(ctx.timingsMs).containsKeys("semantic", "lexical", "fusion").doesNotContainKey("tfidf");
    }

    @Test
    void aWiredBranchThatIsLateFailedOrSilentIsNamedWithItsReason() {
        QueryContext ctx = context("hybrid", QueryRouter.BUILT_IN);
        Branch recent = Branch.ofKey("recent");
        ctx.answer(ok(Branch.SEMANTIC, "a#0"));
        ctx.answer(BranchResult.failed(Branch.LEXICAL, "IOException: connection refused", 4));
        ctx.late(0);
        fusion.fuse(ctx, List.of(new Wired(Branch.TFIDF, 0), new Wired(Branch.SEMANTIC, 1),
                new Wired(Branch.LEXICAL, 2), new Wired(recent, 3)));
        assertThat(ctx.degraded).containsEntry("tfidf", QueryFusion.LATE)
                .containsEntry("lexical", "IOException: connection refused")
                .containsEntry("recent", QueryFusion.NO_RESULT).doesNotContainKey("semantic");
        assertThat(ctx.fused).extracting(c -> c.chunkId()).containsExactly("a#0");
    }

    @Test
    void aBranchThePlanLeavesOutIsNotExpectedEvenIfWired() {
        QueryContext ctx = context("lexical", Set.of(Branch.TFIDF, Branch.LEXICAL));
        ctx.answer(ok(Branch.TFIDF, "a#0"));
        ctx.answer(ok(Branch.LEXICAL, "a#0"));
        fusion.fuse(ctx, List.of(new Wired(Branch.TFIDF, 0), new Wired(Branch.SEMANTIC, 1),
                new Wired(Branch.LEXICAL, 2), new Wired(Branch.ofKey("recent"), 3)));
        assertThat(ctx.degraded).isEmpty();
        assertThat(ctx.expected).containsExactly(Branch.TFIDF, Branch.LEXICAL);
    }
}
