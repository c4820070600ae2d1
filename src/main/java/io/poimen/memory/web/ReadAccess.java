package io.poimen.memory.web;

import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.Caller;
import io.poimen.memory.vault.VaultPaths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Read decisions for one request over many paths. Notes share a policy per project, per skill, and for the rest of
 * {@code shared/}, so each policy is asked once (and audited once) however many of its notes a listing holds.
 */
final class ReadAccess {
    private final AccessChecks checks;
    private final Caller caller;
    private final String traceId;
    private final Map<String, Boolean> decided = new HashMap<>();

    ReadAccess(AccessChecks checks, Caller caller, String traceId) {
        this.checks = checks;
        this.caller = caller;
        this.traceId = traceId;
    }

    /** Throws the 403 of the access checks when the caller may not read {@code path}. */
    void require(String path) {
        checks.requireRead(caller, path, traceId);
        decided.put(policyUnit(path), true);
    }

    /** True when the caller may read {@code path}; a denial is remembered, never thrown. */
    boolean allows(String path) {
        return decided.computeIfAbsent(policyUnit(path), unit -> {
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

    List<String> filter(java.util.Collection<String> paths) {
        return paths.stream().filter(this::allows).toList();
    }

    static String policyUnit(String path) {
        String project = VaultPaths.projectOf(path);
        if (project != null) {
            return VaultPaths.PROJECTS + project;
        }
        String skill = VaultPaths.skillOf(path);
        if (skill != null) {
            return VaultPaths.SHARED + "skills/" + skill;
        }
        return path.startsWith(VaultPaths.SHARED) ? VaultPaths.SHARED : path;
    }
}
