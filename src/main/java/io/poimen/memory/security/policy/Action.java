package io.poimen.memory.security.policy;

import java.util.Locale;

/** What the caller wants to do with a resource; the lower-case name goes to {@code rbac_audit_log.action}. */
public enum Action {
    READ, WRITE, ADMIN;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
