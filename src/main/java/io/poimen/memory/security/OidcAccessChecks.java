package io.poimen.memory.security;

import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.security.policy.VaultResource;
import io.poimen.memory.api.ApiException;

/**
 * {@link AccessChecks} in oidc mode: path safety, then an audited {@link RbacEngine} decision; deny → 403.
 *
 * <p>What a refused caller is told does not depend on what exists: a read denial, and a write denial of a path the
 * caller may not read, is the same 403 for every reason ({@link #denied}), built from the request only, so it reads
 * the same for a project or note that exists and one that does not, and names no policy file. Only a caller who may
 * read the path learns why a write is refused (e.g. {@code role_requirement_failed: need editor}). The audit log keeps
 * the precise reason.
 */
public class OidcAccessChecks implements AccessChecks {
    private final AuditedAccess access;
    private final VaultPathGuard paths;

    public OidcAccessChecks(AuditedAccess access, VaultPathGuard paths) {
        this.access = access;
        this.paths = paths;
    }

    @Override
    public void requireRead(Caller caller, String vaultPath, String traceId) {
        require(caller, vaultPath, Action.READ, traceId);
    }

    @Override
    public void requireWrite(Caller caller, String vaultPath, String traceId) {
        require(caller, vaultPath, Action.WRITE, traceId);
    }

    @Override
    public void requireAdmin(Caller caller, String traceId) {
        AccessDecision d = adminDecision(caller, traceId);
        if (!d.allowed()) {
            throw new ApiException(403, "forbidden", "admin access to " + describe(d.resource()) + " denied: "
                    + d.reason(), d.reason());
        }
    }

    @Override
    public boolean isAdmin(Caller caller, String traceId) {
        return adminDecision(caller, traceId).allowed();
    }

    private AccessDecision adminDecision(Caller caller, String traceId) {
        return access.check(caller, VaultResource.endpoint("admin"), Action.ADMIN, traceId);
    }

    private void require(Caller caller, String vaultPath, Action action, String traceId) {
        paths.resolve(vaultPath);
        VaultResource resource = VaultResource.of(vaultPath);
        AccessDecision d = access.check(caller, resource, action, traceId);
        if (d.allowed()) {
            return;
        }
        // a write refused to a caller who may read the path says why; anything else says nothing
        if (action == Action.WRITE && access.engine().check(caller, resource, Action.READ).allowed()) {
            throw new ApiException(403, "forbidden", "write access to " + describe(resource) + " denied: "
                    + d.reason(), d.reason());
        }
        throw denied(action, resource);
    }

    /** Throws {@link #denied} unless {@code d} allows: for read decisions, whose reason the caller is never told. */
    public static void orForbidden(AccessDecision d) {
        if (!d.allowed()) {
            throw denied(d.action(), d.resource());
        }
    }

    /**
     * The one answer to a caller refused something they may not read: 403 {@code forbidden}, "read access to project
     * p denied", the same whatever the reason and whether the project, folder or note exists.
     */
    public static ApiException denied(Action action, VaultResource resource) {
        return new ApiException(403, "forbidden", action.key() + " access to " + describe(resource) + " denied");
    }

    private static String describe(VaultResource r) {
        return r.name().isEmpty() ? r.type() : r.type() + " " + r.name();
    }
}
