package io.poimen.memory.retrieval;

import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;

/**
 * Gathers the branch answers of the query multicast and, once the multicast completes (all answered or the
 * branch timeout passed), fuses them: a branch that did not answer in time is named in {@code degraded}.
 */
public class FusionAggregationStrategy implements AggregationStrategy {
    private final QueryFusion fusion;

    public FusionAggregationStrategy(QueryFusion fusion) {
        this.fusion = fusion;
    }

    @Override
    public Exchange aggregate(Exchange oldExchange, Exchange newExchange) {
        if (newExchange.getMessage().getBody() instanceof BranchResult result) {
            newExchange.getProperty(QueryContext.PROPERTY, QueryContext.class).answer(result);
        }
        return oldExchange == null ? newExchange : oldExchange;
    }

    @Override
    public void onCompletion(Exchange exchange, Exchange inputExchange) {
        QueryContext ctx = inputExchange.getProperty(QueryContext.PROPERTY, QueryContext.class);
        fusion.fuse(ctx);
        if (exchange != null) {
            exchange.getMessage().setBody(ctx);
        }
    }

    @Override
    public String toString() {
        return "FusionAggregationStrategy";
    }
}
