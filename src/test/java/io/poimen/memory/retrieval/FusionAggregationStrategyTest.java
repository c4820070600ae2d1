package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

/** The multicast's strategy alone: it only collects answers and notes late branches; it never fuses. */
class FusionAggregationStrategyTest {
    private final CamelContext camel = new DefaultCamelContext();
    private final FusionAggregationStrategy strategy = new FusionAggregationStrategy();
    private final QueryContext ctx = new QueryContext(
            new QueryRequest("poimen", "pods crash", null, null, null, null, null, null, null),
            RetrievalSettings.defaults());

    private Exchange branch(Object body) {
        Exchange e = new DefaultExchange(camel);
        e.setProperty(QueryContext.PROPERTY, ctx);
        e.getMessage().setBody(body);
        return e;
    }

    @Test
    void theFirstCallStartsAHolderAndLaterCallsKeepIt() {
        BranchResult lexical = BranchResult.ok(Branch.LEXICAL, List.of(new Hit("a#0", 2.0)), 1);
        BranchResult semantic = BranchResult.failed(Branch.SEMANTIC, "model offline", 3);
        Exchange first = branch(lexical);
        first.getMessage().setHeader("traceparent", "00-abc-def-01");
        Exchange second = branch(semantic);

        Exchange holder = strategy.aggregate(null, first);
        assertThat(holder).isNotSameAs(first);
        assertThat(holder.getMessage().getBody()).isSameAs(ctx);
        assertThat(holder.getMessage().getHeader("traceparent")).isEqualTo("00-abc-def-01");
        assertThat(strategy.aggregate(holder, second)).isSameAs(holder);

        assertThat(ctx.answer(Branch.LEXICAL)).isSameAs(lexical);
        assertThat(ctx.answer(Branch.SEMANTIC)).isSameAs(semantic);
        assertThat(ctx.fused).isEmpty(); // collecting is all it does
        assertThat(ctx.degraded).isEmpty();
    }

    @Test
    void aBranchThatAnsweredNoResultIsNotCollected() {
        Exchange skipped = branch(ctx); // a branch the plan skips passes the query context through
        assertThat(strategy.aggregate(null, skipped).getMessage().getBody()).isSameAs(ctx);
        assertThat(ctx.answers()).isEmpty();
    }

    @Test
    void aFailedFirstBranchLeavesNoHandledErrorOnTheHolder() {
        // what branch-errors leaves on a branch that threw: the error handled, the exception caught
        Exchange failed = branch(BranchResult.failed(Branch.TFIDF, "IllegalStateException: closed", 2));
        failed.setProperty(BranchSearches.BRANCH, "tfidf");
        failed.setProperty(Exchange.EXCEPTION_CAUGHT, new IllegalStateException("closed"));
        failed.getExchangeExtension().setErrorHandlerHandled(true);

        Exchange holder = strategy.aggregate(null, failed);

        assertThat(holder.getExchangeExtension().isErrorHandlerHandledSet()).isFalse();
        assertThat(holder.getProperty(Exchange.EXCEPTION_CAUGHT)).isNull();
        assertThat(holder.getProperty(BranchSearches.BRANCH)).isNull();
        assertThat(holder.getProperty(QueryContext.PROPERTY)).isSameAs(ctx);
        assertThat(ctx.answer(Branch.TFIDF).error()).isEqualTo("IllegalStateException: closed");
    }

    @Test
    void timeoutRecordsThePositionOfEachLateBranch() {
        Exchange first = strategy.aggregate(null, branch(BranchResult.ok(Branch.TFIDF, List.of(), 1)));
        strategy.timeout(first, 1, 3, 250);
        strategy.timeout(first, 2, 3, 250);
        assertThat(ctx.late()).containsExactlyInAnyOrder(1, 2);
        assertThat(ctx.answers()).hasSize(1);
    }

    @Test
    void aTimeoutBeforeAnyAnswerIsRecordedOnTheOriginalExchange() {
        Exchange original = branch(ctx);
        strategy.timeout(original, 0, 3, 250);
        assertThat(ctx.late()).containsExactly(0);
    }
}
