package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.List;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;
import org.apache.camel.support.ExchangeHelper;

/**
 * The query multicast's strategy: it collects the branch answers (immutable {@link BranchResult}s) as a
 * {@link BranchAnswers} value, notes through {@link #timeout} the branches that had not answered when the
 * multicast's timeout passed, and on completion (all answered, or the timeout) fuses them ({@link QueryFusion}): the
 * multicast answers a {@link FusedQuery}. It expects the branches the route wires ({@link RouteBranches}, known once
 * per route load) that the plan chose.
 */
public class FusionAggregationStrategy implements AggregationStrategy {
    private final QueryFusion fusion;
    private final RouteBranches routes;

    public FusionAggregationStrategy(QueryFusion fusion, RouteBranches routes) {
        this.fusion = fusion;
        this.routes = routes;
    }

    /**
     * The first call returns a copy of the first branch's exchange without the branch's traces: the multicast
     * copies the result onto the query's exchange, and a branch failure handled by branch-errors would otherwise
     * end the query route right after the multicast. Its body is the answers collected so far.
     */
    @Override
    public Exchange aggregate(Exchange oldExchange, Exchange newExchange) {
        Exchange holder = oldExchange;
        if (holder == null) {
            holder = newExchange.copy();
            holder.setException(null);
            holder.getExchangeExtension().setErrorHandlerHandled(null);
            holder.getExchangeExtension().setRouteStop(false);
            for (String p : List.of(Exchange.EXCEPTION_CAUGHT, Exchange.FAILURE_ENDPOINT, Exchange.FAILURE_ROUTE_ID,
                    BranchSearches.BRANCH)) {
                holder.removeProperty(p);
            }
            holder.getMessage().setBody(BranchAnswers.NONE);
        }
        BranchAnswers answers = answersOf(holder);
        if (newExchange.getMessage().getBody() instanceof BranchResult result) {
            answers = answers.with(result);
        }
        holder.getMessage().setBody(answers);
        return holder;
    }

    /** {@code oldExchange}: what {@link #aggregate} answered, or the query's own exchange before any answer. */
    @Override
    public void timeout(Exchange oldExchange, int index, int total, long timeout) {
        if (oldExchange != null) {
            oldExchange.getMessage().setBody(answersOf(oldExchange).late(index));
        }
    }

    /** {@code exchange}: what {@link #aggregate} answered (null when no branch answered); {@code input}: the query's. */
    @Override
    public void onCompletion(Exchange exchange, Exchange input) {
        PlannedQuery planned = input.getProperty(PlannedQuery.PROPERTY, PlannedQuery.class);
        if (planned == null) {
            return;
        }
        Exchange target = exchange != null ? exchange : input;
        try {
            target.getMessage().setBody(fusion.fuse(planned, answersOf(target),
                    routes.wired(input.getContext(), ExchangeHelper.getRouteId(input))));
        } catch (RuntimeException e) {
            // thrown out of here it never reaches the multicast's callback: the query would wait forever
            target.setException(e);
        }
    }

    private static BranchAnswers answersOf(Exchange exchange) {
        return exchange.getMessage().getBody() instanceof BranchAnswers a ? a : BranchAnswers.NONE;
    }

    @Override
    public String toString() {
        return "FusionAggregationStrategy";
    }
}
