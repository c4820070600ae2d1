package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.List;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;

/**
 * Collects the branch answers of the query multicast on the query's context (the {@code queryContext} exchange
 * property) and records, through {@link #timeout}, the branches that had not answered when the multicast's
 * timeout passed. It does not fuse: that is the {@code queryFusion} step after the multicast.
 */
public class FusionAggregationStrategy implements AggregationStrategy {

    /**
     * The first call returns a copy of the first branch's exchange without the branch's traces: the multicast
     * copies the result onto the query's exchange, and a branch failure handled by branch-errors would otherwise
     * end the query route right after the multicast. Its body is the query context.
     */
    @Override
    public Exchange aggregate(Exchange oldExchange, Exchange newExchange) {
        QueryContext ctx = newExchange.getProperty(QueryContext.PROPERTY, QueryContext.class);
        if (ctx != null && newExchange.getMessage().getBody() instanceof BranchResult result) {
            ctx.answer(result);
        }
        if (oldExchange != null) {
            return oldExchange;
        }
        Exchange holder = newExchange.copy();
        holder.setException(null);
        holder.getExchangeExtension().setErrorHandlerHandled(null);
        holder.getExchangeExtension().setRouteStop(false);
        for (String p : List.of(Exchange.EXCEPTION_CAUGHT, Exchange.FAILURE_ENDPOINT, Exchange.FAILURE_ROUTE_ID,
                BranchSearches.BRANCH)) {
            holder.removeProperty(p);
        }
        if (ctx != null) {
            holder.getMessage().setBody(ctx);
        }
        return holder;
    }

    @Override
    public void timeout(Exchange oldExchange, int index, int total, long timeout) {
        QueryContext ctx = oldExchange == null ? null : oldExchange.getProperty(QueryContext.PROPERTY, QueryContext.class);
        if (ctx != null) {
            ctx.late(index);
        }
    }

    @Override
    public String toString() {
        return "FusionAggregationStrategy";
    }
}
