package io.poimen.memory.security;

import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.VaultPathGuard;
import org.apache.camel.Exchange;

/**
 * The embedded no-auth mode: every request is the local operator and every access check passes; vault paths are
 * still checked for safety (traversal, symlinks out of the vault) when a guard is given.
 */
public class LocalOperatorAccess implements CallerResolver, AccessChecks {
    private final VaultPathGuard paths;

    public LocalOperatorAccess() {
        this(null);
    }

    public LocalOperatorAccess(VaultPathGuard paths) {
        this.paths = paths;
    }

    @Override
    public Caller caller(Exchange exchange) {
        return Caller.LOCAL_OPERATOR;
    }

    @Override
    public void requireRead(Caller caller, String vaultPath, String traceId) {
        checkPath(vaultPath);
    }

    @Override
    public void requireWrite(Caller caller, String vaultPath, String traceId) {
        checkPath(vaultPath);
    }

    @Override
    public void requireAdmin(Caller caller, String traceId) {
        // no-auth mode on loopback: the local operator is the admin
    }

    @Override
    public boolean isAdmin(Caller caller, String traceId) {
        return true;
    }

    private void checkPath(String vaultPath) {
        if (paths != null) {
            paths.resolve(vaultPath);
        } else {
            VaultPathGuard.check(vaultPath);
        }
    }
}
