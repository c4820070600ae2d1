package io.poimen.memory.security;

import io.poimen.memory.api.ApiException;

/** {@link AccessChecks} in oidc mode: path safety, then an audited {@link RbacEngine} decision; deny → 403. */
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
        orForbidden(adminDecision(caller, traceId));
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
        orForbidden(access.check(caller, VaultResource.of(vaultPath), action, traceId));
    }

    public static void orForbidden(AccessDecision d) {
        if (!d.allowed()) {
            throw forbidden(d);
        }
    }

    static ApiException forbidden(AccessDecision d) {
        return new ApiException(403, "forbidden", d.action().key() + " access to " + d.resource().type() + " "
                + d.resource().name() + " denied: " + d.reason(), d.reason());
    }
}
