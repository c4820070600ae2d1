package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.query.RoutePlan;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

/** The hand-over of the query vector from the query-embedding route to the semantic branch. */
class QueryVectorPrefetchTest {
    private final CamelContext camel = new DefaultCamelContext();
    private final QueryVectorPrefetch prefetch = new QueryVectorPrefetch(Duration.ofMillis(200));

    private QueryContext query(java.util.Set<Branch> branches) {
        QueryContext ctx = new QueryContext(new QueryRequest("poimen", "pods crash", null, null, null, null, null,
                null, null), RetrievalSettings.defaults());
        ctx.plan = new RoutePlan("hybrid", branches, false, "test");
        return ctx;
    }

    private Exchange exchange(QueryContext ctx) {
        Exchange e = new DefaultExchange(camel);
        e.setProperty(QueryContext.PROPERTY, ctx);
        return e;
    }

    @Test
    void onlyAQueryWhosePlanRunsTheSemanticBranchWantsAVectorAndOnlyOnce() {
        QueryContext lexical = query(java.util.Set.of(Branch.LEXICAL, Branch.TFIDF));
        assertThat(prefetch.wanted(lexical)).isFalse();
        QueryContext hybrid = query(java.util.Set.of(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL));
        assertThat(prefetch.wanted(hybrid)).isTrue();
        prefetch.begin(hybrid, exchange(hybrid));
        assertThat(prefetch.wanted(hybrid)).isFalse();
    }

    @Test
    void theBranchGetsTheVectorTheEmbeddingRouteComputedAndItsTime() throws Exception {
        QueryContext ctx = query(java.util.Set.of(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL));
        Exchange tap = exchange(ctx);
        prefetch.begin(ctx, tap);
        float[] vector = {0.1f, 0.2f};
        prefetch.done(ctx, vector, tap.getProperty(QueryVectorPrefetch.STARTED, Long.class));

        Exchange branch = exchange(ctx);
        prefetch.await(ctx, branch);
        assertThat(branch.getMessage().getHeader(BranchSearches.VECTOR_HEADER)).isSameAs(vector);
        assertThat(ctx.timingsMs).containsKey("embedding");
    }

    @Test
    void aFailedEmbeddingFailsTheBranchWithTheModelsOwnError() {
        QueryContext ctx = query(java.util.Set.of(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL));
        Exchange tap = exchange(ctx);
        prefetch.begin(ctx, tap);
        tap.setProperty(Exchange.EXCEPTION_CAUGHT, new IOException("model offline"));
        prefetch.failed(ctx, tap);

        assertThatThrownBy(() -> prefetch.await(ctx, exchange(ctx)))
                .isInstanceOf(IOException.class).hasMessage("model offline");
    }

    @Test
    void aVectorThatNeverComesFailsTheBranchAfterTheWait() {
        QueryContext ctx = query(java.util.Set.of(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL));
        prefetch.begin(ctx, exchange(ctx));

        assertThatThrownBy(() -> prefetch.await(ctx, exchange(ctx)))
                .isInstanceOf(TimeoutException.class).hasMessage("no query vector after 200 ms");
    }

    @Test
    void anEndpointAnswerWithoutVectorIsAFailureNotANullVector() {
        QueryContext ctx = query(java.util.Set.of(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL));
        Exchange tap = exchange(ctx);
        prefetch.begin(ctx, tap);
        prefetch.done(ctx, null, null);

        assertThatThrownBy(() -> prefetch.await(ctx, exchange(ctx)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no vector");
    }
}
