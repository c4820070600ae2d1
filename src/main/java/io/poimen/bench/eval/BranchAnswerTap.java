package io.poimen.bench.eval;

import io.poimen.memory.retrieval.PlannedQuery;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.apache.camel.support.service.ServiceHelper;

/**
 * What each branch of the query route answered, taken from outside the route: Camel reports every send it
 * completes ({@link CamelEvent.ExchangeSentEvent}), and the send of a branch ends with the branch's
 * {@link BranchResult} in the body and its query's {@link PlannedQuery} in a property. These are the answers the
 * multicast hands its aggregation strategy (a branch still out at the route's timeout is left out there, and here
 * if it is still out when the route answers).
 */
final class BranchAnswerTap extends EventNotifierSupport implements AutoCloseable {
    private final CamelContext camel;
    private final Map<PlannedQuery, List<BranchResult>> answers = Collections.synchronizedMap(new IdentityHashMap<>());

    private BranchAnswerTap(CamelContext camel) {
        this.camel = camel;
        setIgnoreCamelContextEvents(true);
        setIgnoreRouteEvents(true);
        setIgnoreServiceEvents(true);
        setIgnoreStepEvents(true);
    }

    /** Starts listening on {@code camel}; {@link #close} stops. */
    static BranchAnswerTap on(CamelContext camel) {
        BranchAnswerTap tap = new BranchAnswerTap(camel);
        tap.setCamelContext(camel);
        ServiceHelper.startService(tap);
        camel.getManagementStrategy().addEventNotifier(tap);
        return tap;
    }

    /** Camel reports a sent exchange only to a send whose start a notifier took: both are taken. */
    @Override
    public boolean isEnabled(CamelEvent event) {
        return event instanceof CamelEvent.ExchangeSendingEvent || event instanceof CamelEvent.ExchangeSentEvent;
    }

    @Override
    public void notify(CamelEvent event) {
        if (!(event instanceof CamelEvent.ExchangeSentEvent sentEvent)) {
            return;
        }
        Exchange sent = sentEvent.getExchange();
        if (sent.getMessage().getBody() instanceof BranchResult result
                && sent.getProperty(PlannedQuery.PROPERTY) instanceof PlannedQuery query) {
            answers.computeIfAbsent(query, q -> Collections.synchronizedList(new ArrayList<>())).add(result);
        }
    }

    /** The branch answers of {@code query} (the route's {@link PlannedQuery#PROPERTY}), forgotten here. */
    List<BranchResult> take(PlannedQuery query) {
        List<BranchResult> taken = answers.remove(query);
        return taken == null ? List.of() : List.copyOf(taken);
    }

    @Override
    public void close() {
        camel.getManagementStrategy().removeEventNotifier(this);
        ServiceHelper.stopService(this);
    }
}
