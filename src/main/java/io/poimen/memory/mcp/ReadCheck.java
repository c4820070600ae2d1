package io.poimen.memory.mcp;

import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.ReadAccess;

/** A read decision that leaves a denied note out instead of failing the call (as listings do). */
final class ReadCheck {
    private ReadCheck() {
    }

    static boolean allows(AccessChecks checks, Caller caller, String path, String traceId) {
        return new ReadAccess(checks, caller, traceId).allows(path);
    }
}
