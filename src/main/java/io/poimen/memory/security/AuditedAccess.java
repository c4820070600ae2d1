package io.poimen.memory.security;

import io.poimen.memory.security.audit.AuditLog;
import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.RbacEngine;
import io.poimen.memory.security.policy.VaultResource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** {@link RbacEngine} decisions, each written to the audit log in the same request and counted. */
public class AuditedAccess {
    private final RbacEngine engine;
    private final AuditLog audit;
    private final Consumer<AccessDecision> counted;

    public AuditedAccess(RbacEngine engine, AuditLog audit) {
        this(engine, audit, d -> { });
    }

    /** @param counted sees every decision that is audited (the {@code poimen_rbac_decisions_total} counter) */
    public AuditedAccess(RbacEngine engine, AuditLog audit, Consumer<AccessDecision> counted) {
        this.engine = engine;
        this.audit = audit;
        this.counted = counted;
    }

    private void audited(Caller caller, List<AccessDecision> decisions, String traceId) {
        audit.record(caller, decisions, traceId);
        decisions.forEach(counted);
    }

    public AccessDecision check(Caller caller, VaultResource resource, Action action, String traceId) {
        AccessDecision d = engine.check(caller, resource, action);
        audited(caller, List.of(d), traceId);
        return d;
    }

    /** One decision per distinct resource, audited as one batch. */
    public Map<VaultResource, AccessDecision> checkAll(Caller caller, Collection<VaultResource> resources,
                                                       Action action, String traceId) {
        Map<VaultResource, AccessDecision> out = new LinkedHashMap<>();
        for (VaultResource r : resources) {
            out.computeIfAbsent(r, x -> engine.check(caller, x, action));
        }
        audited(caller, new ArrayList<>(out.values()), traceId);
        return out;
    }

    /** Records decisions made with {@link #engine()} directly. */
    public void record(Caller caller, List<AccessDecision> decisions, String traceId) {
        audited(caller, decisions, traceId);
    }

    public RbacEngine engine() {
        return engine;
    }
}
