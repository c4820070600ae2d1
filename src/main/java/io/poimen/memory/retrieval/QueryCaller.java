package io.poimen.memory.retrieval;

import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.ReadableScope;
import java.util.function.Predicate;

/**
 * Who asks and what they may read, as the project check found it.
 *
 * @param caller  the caller (the local operator in the no-auth mode)
 * @param project the audited decision on the query's project; null for the local operator
 * @param scope   the read decisions of this request; null for the local operator (every note readable)
 */
public record QueryCaller(Caller caller, AccessDecision project, ReadableScope scope) {

    public static QueryCaller unchecked(Caller caller) {
        return new QueryCaller(caller, null, null);
    }

    public boolean checked() {
        return scope != null;
    }

    /**
     * The notes the caller may read; null: every note (no-auth mode). It answers alike for the notes of one access
     * group ({@code VaultPaths.accessGroupOf}): the scope caches ask it once per group.
     */
    public Predicate<String> readable() {
        return scope;
    }
}
