package io.poimen.memory.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link RbacEngine} decisions, each written to the audit log in the same request. */
public class AuditedAccess {
    private final RbacEngine engine;
    private final AuditLog audit;

    public AuditedAccess(RbacEngine engine, AuditLog audit) {
        this.engine = engine;
        this.audit = audit;
    }

    public AccessDecision check(Caller caller, VaultResource resource, Action action, String traceId) {
        AccessDecision d = engine.check(caller, resource, action);
        audit.record(caller, List.of(d), traceId);
        return d;
    }

    /** One decision per distinct resource, audited as one batch. */
    public Map<VaultResource, AccessDecision> checkAll(Caller caller, Collection<VaultResource> resources,
                                                       Action action, String traceId) {
        Map<VaultResource, AccessDecision> out = new LinkedHashMap<>();
        for (VaultResource r : resources) {
            out.computeIfAbsent(r, x -> engine.check(caller, x, action));
        }
        audit.record(caller, new ArrayList<>(out.values()), traceId);
        return out;
    }

    /** Records decisions made with {@link #engine()} directly. */
    public void record(Caller caller, List<AccessDecision> decisions, String traceId) {
        audit.record(caller, decisions, traceId);
    }

    public RbacEngine engine() {
        return engine;
    }
}
