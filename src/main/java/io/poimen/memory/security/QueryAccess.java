package io.poimen.memory.security;

import io.poimen.memory.retrieval.QueryContext;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;

/**
 * The access steps of the query route: the project check before any search (403 with the reason code), and after
 * fusion the silent removal of candidates under skills or shared folders the caller may not read (one audited
 * decision per distinct resource per request). The local operator of the no-auth mode skips both.
 */
public class QueryAccess {
    static final String PROJECT_DECISION = "poimenProjectDecision";
    private final CallerResolver callers;
    private final AuditedAccess access;

    public QueryAccess(CallerResolver callers, AuditedAccess access) {
        this.callers = callers;
        this.access = access;
    }

    public void checkProject(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        Caller caller = callers.caller(exchange);
        exchange.setProperty(ExchangeSecurity.CALLER_PROPERTY, caller);
        String traceId = ExchangeSecurity.traceId(exchange);
        if (caller.anonymous()) {
            return;
        }
        AccessDecision d = access.check(caller, VaultResource.project(ctx.request.project()), Action.READ, traceId);
        OidcAccessChecks.orForbidden(d);
        exchange.setProperty(PROJECT_DECISION, d);
    }

    public void filterResults(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        Caller caller = callers.caller(exchange);
        if (caller.anonymous()) {
            return;
        }
        AccessDecision project = exchange.getProperty(PROJECT_DECISION, AccessDecision.class);
        Set<VaultResource> resources = ResultAccessFilter.resources(ctx.fused);
        Map<VaultResource, AccessDecision> decisions = new HashMap<>();
        if (project != null && project.allowed()) {
            resources.remove(project.resource());
            decisions.put(project.resource(), project);
        }
        decisions.putAll(access.checkAll(caller, resources, Action.READ, ExchangeSecurity.traceId(exchange)));
        ctx.fused = ResultAccessFilter.readable(ctx.fused, decisions);
    }
}
