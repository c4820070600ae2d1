package io.poimen.memory.security;

import io.poimen.memory.security.policy.Caller;

/**
 * Access decisions for entry points other than the query pipeline (vault browsing, GRC, graph, agents, admin).
 * Each call is audited. A denied check throws {@link io.poimen.memory.api.ApiException} with status 403.
 */
public interface AccessChecks {
    /** The caller may read the vault path (its project's or skill's policy). */
    void requireRead(Caller caller, String vaultPath, String traceId);

    /** The caller may write the vault path (GRC drafts). */
    void requireWrite(Caller caller, String vaultPath, String traceId);

    /** The caller may use admin endpoints (reindex, audit log). */
    void requireAdmin(Caller caller, String traceId);

    /**
     * Whether the caller is an operator (the admin check of {@link #requireAdmin}, audited the same way, without
     * refusing): vault-wide figures in an answer are shown to operators only.
     */
    boolean isAdmin(Caller caller, String traceId);
}
