package io.poimen.memory.grc;

import java.util.Locale;

/** Where a draft is on its way to a pull request. */
public enum DraftStatus {
    /** stored, not delivered yet; retried when due (also after a failed attempt: {@code last_error} says why) */
    PENDING,
    /** an attempt is running (or the hub died during one; claimed again after the delivering timeout) */
    DELIVERING,
    /** the branch is pushed and the pull request is open */
    DELIVERED,
    /** every attempt failed; no more retries */
    FAILED;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DraftStatus of(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }
}
