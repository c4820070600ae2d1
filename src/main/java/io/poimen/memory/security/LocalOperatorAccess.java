package io.poimen.memory.security;

import org.apache.camel.Exchange;

/** The embedded no-auth mode: every request is the local operator, and every check passes. */
public class LocalOperatorAccess implements CallerResolver, AccessChecks {
    @Override
    public Caller caller(Exchange exchange) {
        return Caller.LOCAL_OPERATOR;
    }

    @Override
    public void requireRead(Caller caller, String vaultPath, String traceId) {
        // no-auth mode on loopback: nothing to check
    }

    @Override
    public void requireWrite(Caller caller, String vaultPath, String traceId) {
        // no-auth mode on loopback: nothing to check
    }

    @Override
    public void requireAdmin(Caller caller, String traceId) {
        // no-auth mode on loopback: nothing to check
    }
}
