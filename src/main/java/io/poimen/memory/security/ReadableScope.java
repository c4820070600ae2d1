package io.poimen.memory.security;

import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.RbacEngine;
import io.poimen.memory.security.policy.VaultResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Read decisions of one query, per folder ({@link VaultResource#of}), made when the search scope is built so that
 * the branches never see a note the caller may not read; audited once, together, after fusion.
 */
public final class ReadableScope implements Predicate<String> {
    private final RbacEngine engine;
    private final Caller caller;
    private final Map<VaultResource, AccessDecision> decisions = new LinkedHashMap<>();

    ReadableScope(RbacEngine engine, Caller caller) {
        this.engine = engine;
        this.caller = caller;
    }

    @Override
    public synchronized boolean test(String path) {
        return decision(VaultResource.of(path)).allowed();
    }

    public synchronized AccessDecision decision(VaultResource resource) {
        return decisions.computeIfAbsent(resource, r -> engine.check(caller, r, Action.READ));
    }

    public synchronized List<AccessDecision> all() {
        return new ArrayList<>(decisions.values());
    }
}
