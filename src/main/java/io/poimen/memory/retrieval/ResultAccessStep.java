package io.poimen.memory.retrieval;

import io.poimen.memory.security.AccessDecision;
import io.poimen.memory.security.AuditedAccess;
import io.poimen.memory.security.ExchangeSecurity;
import io.poimen.memory.security.ReadableScope;
import io.poimen.memory.security.VaultResource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;

/**
 * Query step after fusion: candidates under skills or shared folders the caller may not read leave silently (a
 * second line after the readable scope, fail closed), and every read decision of the request is audited, one row per
 * distinct folder. The local operator of the no-auth mode skips it.
 */
public class ResultAccessStep {
    private final AuditedAccess access;

    public ResultAccessStep(AuditedAccess access) {
        this.access = access;
    }

    public FusedQuery filter(FusedQuery q, Exchange exchange) {
        long t0 = System.nanoTime();
        QueryCaller caller = q.planned().caller();
        if (!caller.checked()) {
            return q.withFused(q.fused(), q.trace().timed("result_access", t0));
        }
        ReadableScope scope = caller.scope();
        Map<VaultResource, AccessDecision> decisions = new HashMap<>();
        for (VaultResource r : ResultAccessFilter.resources(q.fused())) {
            decisions.put(r, scope.decision(r));
        }
        List<AccessDecision> audited = new ArrayList<>(scope.all());
        if (caller.project() != null) {
            audited.removeIf(d -> d.resource().equals(caller.project().resource()));
        }
        access.record(caller.caller(), audited, ExchangeSecurity.traceId(exchange));
        return q.withFused(ResultAccessFilter.readable(q.fused(), decisions), q.trace().timed("result_access", t0));
    }
}
