package io.poimen.memory.security;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.VaultResource;
import java.util.Collection;
import java.util.List;

/**
 * The one door to access control: every surface (the REST routes' beans, the query route's access steps, MCP, the
 * agent feed, the UI endpoints, GRC, cluster status) asks here, and nowhere else. Three kinds of question:
 * <ul>
 *   <li><b>require</b>: read, write or admin on a vault path, audited; a refusal throws the uniform 403 (no reason for
 *       what the caller may not read, {@link #denied}), or 404 {@code no such note} where a denied note must answer
 *       as a missing one ({@link ReadAccess#requireOrNotFound});</li>
 *   <li><b>filter</b>: keep the paths the caller may read ({@link #reads}, {@link #filter}, {@link #allows}), each
 *       folder decided and audited once per request;</li>
 *   <li><b>scope</b>: the read predicate a search is built from ({@link #scope}), decided per folder and audited
 *       once, together, by its owner ({@link #audit}).</li>
 * </ul>
 * It decides nothing itself: the mode's {@link AccessChecks} ({@link LocalOperatorAccess}: the no-auth local
 * operator passes, paths are still checked; {@link OidcAccessChecks}) and {@link AuditedAccess}
 * ({@code RbacEngine}'s decisions written to the audit log) do.
 */
public class Access {
    private final AccessChecks checks;
    private final AuditedAccess audited;

    public Access(AccessChecks checks, AuditedAccess audited) {
        this.checks = checks;
        this.audited = audited;
    }

    /** Throws 403 (or 400 {@code bad_path}) unless the caller may read {@code vaultPath}. */
    public void requireRead(Caller caller, String vaultPath, String traceId) {
        checks.requireRead(caller, vaultPath, traceId);
    }

    /** Throws 403 unless the caller may write {@code vaultPath}; only a caller who may read it is told why. */
    public void requireWrite(Caller caller, String vaultPath, String traceId) {
        checks.requireWrite(caller, vaultPath, traceId);
    }

    public void requireAdmin(Caller caller, String traceId) {
        checks.requireAdmin(caller, traceId);
    }

    /** The admin check, audited, without refusing: vault-wide figures are shown to operators only. */
    public boolean isAdmin(Caller caller, String traceId) {
        return checks.isAdmin(caller, traceId);
    }

    /**
     * The audited read decision on a resource (a project before a search); throws the reason-less 403 when it denies.
     * For callers who are not the no-auth local operator (the query route skips the check for that one).
     */
    public AccessDecision requireRead(Caller caller, VaultResource resource, String traceId) {
        AccessDecision d = audited.check(caller, resource, Action.READ, traceId);
        OidcAccessChecks.orForbidden(d);
        return d;
    }

    /** The one answer to a caller refused something they may not read, whatever the reason and whether it exists. */
    public static ApiException denied(Action action, VaultResource resource) {
        return OidcAccessChecks.denied(action, resource);
    }

    /** Read decisions for one request over many paths: each folder decided, and audited, once. */
    public ReadAccess reads(Caller caller, String traceId) {
        return new ReadAccess(checks, caller, traceId);
    }

    /** Whether the caller may read {@code path}, audited; a denial is an answer, never thrown. */
    public boolean allows(Caller caller, String path, String traceId) {
        return reads(caller, traceId).allows(path);
    }

    /** The paths of {@code paths} the caller may read, in their order; each folder audited once. */
    public List<String> filter(Caller caller, Collection<String> paths, String traceId) {
        return reads(caller, traceId).filter(paths);
    }

    /**
     * The read predicate of a search for one caller: per folder, decided when first asked, not audited until the
     * decisions are handed to {@link #audit}.
     */
    public ReadableScope scope(Caller caller) {
        return new ReadableScope(audited.engine(), caller);
    }

    /** Writes decisions made through a {@link #scope} to the audit log, in the same request (503 if it cannot). */
    public void audit(Caller caller, List<AccessDecision> decisions, String traceId) {
        audited.record(caller, decisions, traceId);
    }
}
