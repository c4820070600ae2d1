package io.poimen.memory.retrieval;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.ReadableScope;
import io.poimen.memory.security.policy.VaultResource;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;

/**
 * The access steps of the query route, asked of the door ({@link Access}): the project check before any search
 * (403 without a reason: the same answer for a project the caller may not read and, with authentication, one that does not exist), which also
 * gives the query its read predicate ({@link QueryContext#readable}): the planner builds the search scope from
 * readable notes only, so a note the caller may not read never enters a branch's candidate list and cannot move a
 * normalised score or a count. After fusion, candidates are checked once more (a second line, fail closed) and
 * every decision of the request is audited: one row per distinct folder. The local operator of the no-auth mode
 * skips all of it.
 */
public class QueryAccess {
    static final String PROJECT_DECISION = "poimenProjectDecision";
    static final String SCOPE = "poimenReadableScope";
    private final CallerResolver callers;
    private final Access access;
    private final GraphService graph;

    public QueryAccess(CallerResolver callers, Access access, GraphService graph) {
        this.callers = callers;
        this.access = access;
        this.graph = graph;
    }

    public void checkProject(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        Caller caller = callers.caller(exchange);
        exchange.setProperty(ExchangeSecurity.CALLER_PROPERTY, caller);
        String traceId = ExchangeSecurity.traceId(exchange);
        if (caller.anonymous()) {
            return;
        }
        AccessDecision d = access.requireRead(caller, VaultResource.project(ctx.request.project()), traceId);
        if (!graph.current().projects().contains(ctx.request.project())) {
            throw Access.denied(Action.READ, d.resource());
        }
        exchange.setProperty(PROJECT_DECISION, d);
        ReadableScope scope = access.scope(caller);
        exchange.setProperty(SCOPE, scope);
        ctx.readable = scope;
    }

    public void filterResults(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        Caller caller = callers.caller(exchange);
        if (caller.anonymous()) {
            return;
        }
        AccessDecision project = exchange.getProperty(PROJECT_DECISION, AccessDecision.class);
        ReadableScope scope = exchange.getProperty(SCOPE, ReadableScope.class);
        if (scope == null) {
            scope = access.scope(caller);
        }
        List<FusedCandidate> readable = ResultAccessFilter.readable(ctx.fused, scope);
        List<AccessDecision> audited = new ArrayList<>(scope.all());
        if (project != null) {
            audited.removeIf(d -> d.resource().equals(project.resource()));
        }
        access.audit(caller, audited, ExchangeSecurity.traceId(exchange));
        ctx.fused = readable;
    }
}
