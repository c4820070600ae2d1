package io.poimen.memory.mcp;

import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.Caller;
import io.poimen.memory.api.ApiException;

/** A read decision that leaves a denied note out instead of failing the call (as listings do). */
final class ReadCheck {
    private ReadCheck() {
    }

    static boolean allows(AccessChecks checks, Caller caller, String path, String traceId) {
        try {
            checks.requireRead(caller, path, traceId);
            return true;
        } catch (ApiException e) {
            if (e.status() == 403) {
                return false;
            }
            throw e;
        }
    }
}
