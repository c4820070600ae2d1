package io.poimen.memory.retrieval;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.VaultResource;
import org.apache.camel.Exchange;

/**
 * Query step 2, asked of the access door ({@link Access}): the caller must be allowed to read the project, before any search (403 without a reason: the same
 * answer for a project the caller may not read and, with authentication, one that does not exist; audited). It
 * gives the query its read decisions ({@link QueryCaller#readable}): the plan builds the search scope from readable
 * notes only, so a note the caller may not read never enters a branch's candidate list and cannot move a normalised
 * score or a count. The local operator of the no-auth mode skips the check.
 */
public class ProjectCheckStep {
    private final CallerResolver callers;
    private final Access access;
    private final GraphService graph;

    public ProjectCheckStep(CallerResolver callers, Access access, GraphService graph) {
        this.callers = callers;
        this.access = access;
        this.graph = graph;
    }

    public AllowedQuery check(AskedQuery asked, Exchange exchange) {
        long t0 = System.nanoTime();
        Caller caller = callers.caller(exchange);
        exchange.setProperty(ExchangeSecurity.CALLER_PROPERTY, caller);
        QueryCaller checked = check(asked, caller, ExchangeSecurity.traceId(exchange));
        return new AllowedQuery(asked, checked, asked.trace().timed("access", t0));
    }

    QueryCaller check(AskedQuery asked, Caller caller, String traceId) {
        if (caller.anonymous()) {
            return QueryCaller.unchecked(caller);
        }
        String project = asked.request().project();
        AccessDecision d = access.requireRead(caller, VaultResource.project(project), traceId);
        if (!graph.current().projects().contains(project)) {
            throw Access.denied(Action.READ, d.resource());
        }
        return new QueryCaller(caller, d, access.scope(caller));
    }
}
