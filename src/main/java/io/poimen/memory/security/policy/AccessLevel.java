package io.poimen.memory.security.policy;

import java.util.Locale;

/** {@code access_level} of an {@code _access.yaml}. */
public enum AccessLevel {
    /** every authenticated caller */
    PUBLIC,
    /** members of one of {@code allowed_groups} */
    GROUP,
    /** members of {@code owner_group} only */
    PRIVATE;

    static AccessLevel parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("access_level must be public, group or private, got " + s);
        }
    }
}
