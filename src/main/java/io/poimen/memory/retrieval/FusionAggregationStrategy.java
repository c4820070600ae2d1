package io.poimen.memory.retrieval;

import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;

/**
 * Collects the branch answers of the query multicast on the query's context (the {@code queryContext} exchange
 * property) and records, through {@link #timeout}, the branches that had not answered when the multicast's
 * timeout passed. It does not fuse: that is the {@code queryFusion} step after the multicast.
 */
public class FusionAggregationStrategy implements AggregationStrategy {

    @Override
    public Exchange aggregate(Exchange oldExchange, Exchange newExchange) {
        QueryContext ctx = newExchange.getProperty(QueryContext.PROPERTY, QueryContext.class);
        if (ctx != null && newExchange.getMessage().getBody() instanceof BranchResult result) {
            ctx.answer(result);
        }
        return oldExchange == null ? newExchange : oldExchange;
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
