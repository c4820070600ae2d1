package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.query.QueryRouter;
import java.nio.file.Files;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The multicast's strategy alone, as the multicast calls it: it collects immutable branch answers, notes the late
 * ones at the timeout, and on completion fuses the branches the shipped route wires (read from its model).
 */
class FusionAggregationStrategyTest {
    private CamelContext camel;
    private final FusionAggregationStrategy strategy = new FusionAggregationStrategy(
            new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry())), new RouteBranches());
    private final PlannedQuery planned = QueryValues.planned("hybrid", QueryRouter.BUILT_IN, SearchScope.all());

    @BeforeEach
    void loadTheShippedQueryRoute() throws Exception {
        camel = new DefaultCamelContext();
        PluginHelper.getRoutesLoader(camel).loadRoutes(ResourceHelper.fromString("query.camel.yaml",
                Files.readString(RouteBranchesTest.QUERY_ROUTE)));
    }

    @AfterEach
    void close() throws Exception {
        camel.close();
    }

    /** The query's exchange as the multicast's input: the planned query in its property, inside route memory-query. */
    private Exchange input() {
        Exchange e = new DefaultExchange(camel);
        e.setProperty(PlannedQuery.PROPERTY, planned);
        e.getMessage().setBody(planned);
        e.getExchangeExtension().setFromRouteId("memory-query");
        return e;
    }

    private Exchange branch(Object body) {
        Exchange e = new DefaultExchange(camel);
        e.setProperty(PlannedQuery.PROPERTY, planned);
        e.getMessage().setBody(body);
        return e;
    }

    private static BranchResult ok(Branch b, String... ids) {
        return BranchResult.ok(b, java.util.Arrays.stream(ids).map(id -> new Hit(id, 1.0)).toList(), 1);
    }

    @Test
    void theFirstCallStartsAHolderAndLaterCallsKeepIt() {
        BranchResult lexical = ok(Branch.LEXICAL, "a#0");
        BranchResult semantic = BranchResult.failed(Branch.SEMANTIC, "model offline", 3);
        Exchange first = branch(lexical);
        first.getMessage().setHeader("traceparent", "00-abc-def-01");

        Exchange holder = strategy.aggregate(null, first);
        assertThat(holder).isNotSameAs(first);
        assertThat(holder.getMessage().getHeader("traceparent")).isEqualTo("00-abc-def-01");
        assertThat(strategy.aggregate(holder, branch(semantic))).isSameAs(holder);

        BranchAnswers answers = holder.getMessage().getBody(BranchAnswers.class);
        assertThat(answers.answers()).containsEntry(Branch.LEXICAL, lexical).containsEntry(Branch.SEMANTIC, semantic);
        assertThat(answers.late()).isEmpty();
    }

    @Test
    void aBranchThatAnsweredNoResultIsNotCollected() {
        Exchange skipped = branch(planned); // a branch the plan skips passes the planned query through
        assertThat(strategy.aggregate(null, skipped).getMessage().getBody(BranchAnswers.class).answers()).isEmpty();
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
        assertThat(holder.getProperty(PlannedQuery.PROPERTY)).isSameAs(planned);
        assertThat(holder.getMessage().getBody(BranchAnswers.class).answers().get(Branch.TFIDF).error())
                .isEqualTo("IllegalStateException: closed");
    }

    @Test
    void onCompletionFusesTheWiredBranchesAndNamesAFailedOne() {
        Exchange holder = strategy.aggregate(null, branch(ok(Branch.TFIDF, "a#0", "b#0")));
        strategy.aggregate(holder, branch(ok(Branch.SEMANTIC, "b#0", "c#0")));
        strategy.aggregate(holder, branch(BranchResult.failed(Branch.LEXICAL, "IOException: refused", 2)));

        strategy.onCompletion(holder, input());

        FusedQuery fused = holder.getMessage().getBody(FusedQuery.class);
        assertThat(fused.expected()).containsExactly(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL);
        assertThat(fused.trace().degraded()).containsOnlyKeys("lexical").containsEntry("lexical", "IOException: refused");
        assertThat(fused.fused()).extracting(c -> c.chunkId()).containsExactlyInAnyOrder("a#0", "b#0", "c#0");
        assertThat(fused.fused().get(0).chunkId()).isEqualTo("b#0"); // both branches found it
        assertThat(fused.trace().timingsMs()).containsKeys("tfidf", "semantic", "lexical", "branches", "fusion");
    }

    /** The hub's strategy bean gives the fusion the TF-IDF index's term shares, so the gate's coverage keep acts. */
    @Test
    void theHubsStrategyKeepsACutDenseListThatCoversTheQuestion() {
        FusionAggregationStrategy hub = new RetrievalConfig().fusionAggregationStrategy(
                new RetrievalMetrics(new SimpleMeterRegistry()), new RouteBranches(),
                EmbeddingModelChoice.defaultChoice(),
                QueryFusionTest.coverageIndex("the pod restart counter after the kernel killed it"));
        PlannedQuery question = QueryValues.planned("hybrid", QueryRouter.BUILT_IN, SearchScope.all(),
                "why does the pod restart after it was killed");
        Exchange holder = null;
        for (BranchResult r : QueryFusionTest.coverageLists().answers().values()) {
            Exchange e = branch(r);
            e.setProperty(PlannedQuery.PROPERTY, question);
            holder = hub.aggregate(holder, e);
        }
        Exchange in = input();
        in.setProperty(PlannedQuery.PROPERTY, question);
        in.getMessage().setBody(question);
        hub.onCompletion(holder, in);

        FusedQuery fused = holder.getMessage().getBody(FusedQuery.class);
        assertThat(fused.fused().get(0).chunkId()).startsWith("projects/poimen/own-");
        assertThat(fused.fused().get(0).reason()).contains("semantic kept by the gate");
    }

    @Test
    void theBranchesStillOutAtTheTimeoutAreNamedLateAndTheOthersFused() {
        Exchange holder = strategy.aggregate(null, branch(ok(Branch.TFIDF, "a#0")));
        strategy.timeout(holder, 1, 3, 250);
        strategy.timeout(holder, 2, 3, 250);
        assertThat(holder.getMessage().getBody(BranchAnswers.class).late()).containsExactly(1, 2);

        strategy.onCompletion(holder, input());

        FusedQuery fused = holder.getMessage().getBody(FusedQuery.class);
        assertThat(fused.trace().degraded()).containsEntry("semantic", QueryFusion.LATE)
                .containsEntry("lexical", QueryFusion.LATE).doesNotContainKey("tfidf");
        assertThat(fused.fused()).extracting(c -> c.chunkId()).containsExactly("a#0");
    }

    @Test
    void aTimeoutBeforeAnyAnswerIsFusedOnTheQuerysOwnExchange() {
        Exchange original = input();
        strategy.timeout(original, 0, 3, 250);
        strategy.timeout(original, 1, 3, 250);
        strategy.timeout(original, 2, 3, 250);

        strategy.onCompletion(null, original);

        FusedQuery fused = original.getMessage().getBody(FusedQuery.class);
        assertThat(fused.trace().degraded()).containsOnlyKeys("tfidf", "semantic", "lexical")
                .containsValue(QueryFusion.LATE);
        assertThat(fused.fused()).isEmpty();
        assertThat(fused.candidates()).isZero();
    }

    /**
     * An exception from the fusion inside a real multicast (parallel, synchronous, with a timeout, as the shipped
     * route): thrown out of onCompletion it never reached Camel's callback and the query never answered, holding
     * the caller's thread; now it is the exchange's failure, which the route turns into its JSON error.
     */
    @Test
    void aFusionThatFailsFailsTheQueryInsteadOfLeavingItUnanswered() throws Exception {
        QueryFusion broken = new QueryFusion(new RetrievalMetrics(new SimpleMeterRegistry())) {
            @Override
            public FusedQuery fuse(PlannedQuery q, BranchAnswers answers, List<RouteBranches.Wired> wired) {
                throw new IllegalStateException("fusion failed");
            }
        };
        try (CamelContext own = new DefaultCamelContext()) {
            own.addRoutes(new org.apache.camel.builder.RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:fused").routeId("fused-query")
                            .multicast(new FusionAggregationStrategy(broken, new RouteBranches()))
                            .parallelProcessing().synchronous().timeout(30_000)
                            .to("direct:lexical-answer").end();
                    from("direct:lexical-answer").setBody(e -> ok(Branch.LEXICAL, "a#0"));
                }
            });
            own.start();
            Exchange in = new DefaultExchange(own);
            in.setProperty(PlannedQuery.PROPERTY, planned);
            in.getMessage().setBody(planned);
            java.util.concurrent.Future<Exchange> sent = own.createProducerTemplate().asyncSend("direct:fused", in);

            Exchange done = sent.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(done.getException()).isInstanceOf(IllegalStateException.class).hasMessage("fusion failed");
        }
    }
}
