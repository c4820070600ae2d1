package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.ReadableScope;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.policy.AccessDecision;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.Exchange;

/**
 * Query step after fusion: candidates under skills or shared folders the caller may not read leave silently (a
 * second line after the readable scope, fail closed), and every read decision of the request is audited, one row per
 * distinct folder. The local operator of the no-auth mode skips it.
 */
public class ResultAccessStep {
    private final Access access;

    public ResultAccessStep(Access access) {
        this.access = access;
    }

    public FusedQuery filter(FusedQuery q, Exchange exchange) {
        long t0 = System.nanoTime();
        QueryCaller caller = q.planned().caller();
        if (!caller.checked()) {
            return q.withFused(q.fused(), q.trace().timed("result_access", t0));
        }
        ReadableScope scope = caller.scope();
        List<FusedCandidate> readable = ResultAccessFilter.readable(q.fused(), scope);
        List<AccessDecision> audited = new ArrayList<>(scope.all());
        if (caller.project() != null) {
            audited.removeIf(d -> d.resource().equals(caller.project().resource()));
        }
        access.audit(caller.caller(), audited, ExchangeSecurity.traceId(exchange));
        return q.withFused(readable, q.trace().timed("result_access", t0));
    }
}
