package io.poimen.memory.retrieval;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.security.AccessDecision;
import io.poimen.memory.security.Action;
import io.poimen.memory.security.AuditedAccess;
import io.poimen.memory.security.Caller;
import io.poimen.memory.security.CallerResolver;
import io.poimen.memory.security.ExchangeSecurity;
import io.poimen.memory.security.OidcAccessChecks;
import io.poimen.memory.security.ReadableScope;
import io.poimen.memory.security.VaultResource;
import org.apache.camel.Exchange;

/**
 * Query step 2: the caller must be allowed to read the project, before any search (403 without a reason: the same
 * answer for a project the caller may not read and, with authentication, one that does not exist; audited). It
 * gives the query its read decisions ({@link QueryCaller#readable}): the plan builds the search scope from readable
 * notes only, so a note the caller may not read never enters a branch's candidate list and cannot move a normalised
 * score or a count. The local operator of the no-auth mode skips the check.
 */
public class ProjectCheckStep {
    private final CallerResolver callers;
    private final AuditedAccess access;
    private final GraphService graph;

    public ProjectCheckStep(CallerResolver callers, AuditedAccess access, GraphService graph) {
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
        AccessDecision d = access.check(caller, VaultResource.project(project), Action.READ, traceId);
        OidcAccessChecks.orForbidden(d);
        if (!graph.current().projects().contains(project)) {
            throw OidcAccessChecks.denied(Action.READ, d.resource());
        }
        return new QueryCaller(caller, d, new ReadableScope(access.engine(), caller));
    }
}
