package io.poimen.memory.security;

import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.VaultResource;
import io.poimen.memory.api.ApiException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Read decisions for one request over many paths. Notes of one folder share their policies (those on the folder's
 * path, {@link io.poimen.memory.security.policy.PolicyStore}), so each folder is decided once (and audited once)
 * however many of its notes a listing holds. Made by the door ({@link Access#reads}).
 */
public final class ReadAccess {
    private final AccessChecks checks;
    private final Caller caller;
    private final String traceId;
    private final Map<VaultResource, Boolean> decided = new HashMap<>();

    ReadAccess(AccessChecks checks, Caller caller, String traceId) {
        this.checks = checks;
        this.caller = caller;
        this.traceId = traceId;
    }

    /** Throws the 403 of the access checks when the caller may not read {@code path}. */
    public void require(String path) {
        checks.requireRead(caller, path, traceId);
        decided.put(VaultResource.of(path), true);
    }

    /**
     * Throws 404 {@code no such note: <path>} when the caller may not read {@code path}: a denied note answers
     * exactly as a missing one, so status and body do not tell whether it exists.
     */
    public void requireOrNotFound(String path) {
        if (!allows(path)) {
            throw notFound(path);
        }
    }

    /**
     * A project that does not exist (no note under {@code projects/<project>/}): 404 {@code unknown project} for the
     * local operator of the no-auth mode; to anyone else the very 403 of a project they may not read, so the answer
     * does not tell a missing project from a denied one.
     */
    public ApiException unknownProject(String project) {
        return caller.anonymous() ? ApiException.notFound("unknown project: " + project)
                : OidcAccessChecks.denied(Action.READ, VaultResource.project(project));
    }

    public static ApiException notFound(String path) {
        return ApiException.notFound("no such note: " + path);
    }

    /** As {@link #allows}, but a path that is not a safe vault path (it cannot be a note) is simply not readable. */
    public boolean allowsIfNotePath(String path) {
        try {
            return allows(path);
        } catch (ApiException e) {
            return false;
        }
    }

    /** True when the caller may read {@code path}; a denial is remembered, never thrown. */
    public boolean allows(String path) {
        return decided.computeIfAbsent(VaultResource.of(path), unit -> {
            try {
                checks.requireRead(caller, path, traceId);
                return true;
            } catch (ApiException e) {
                if (e.status() == 403) {
                    return false;
                }
                throw e;
            }
        });
    }

    public List<String> filter(Collection<String> paths) {
        return paths.stream().filter(this::allows).toList();
    }
}
