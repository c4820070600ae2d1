package io.poimen.memory.grc;

import java.util.Locale;

/** Where a draft is reviewed: on the hub itself (its vault repository) or as a Forgejo pull request. */
public enum ReviewHost {
    /** a branch in the hub's vault repository; approved and merged through the hub's API and UI */
    LOCAL,
    /** a branch pushed to the vault remote and a pull request on Forgejo, reviewed and merged there */
    FORGEJO;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ReviewHost of(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }
}
