package io.poimen.memory.grc;

import java.util.Locale;

/**
 * Where a draft is, on either review host (the hub itself or Forgejo). The shared states are {@code open},
 * {@code conflict}, {@code merged}, {@code rejected} and {@code delivery_failed}; {@code pending} and
 * {@code delivering} are a Forgejo draft on its way to its pull request.
 */
public enum DraftStatus {
    /** Forgejo: stored, not delivered yet; retried when due (also after a failed attempt: {@code last_error}) */
    PENDING,
    /** Forgejo: an attempt is running (or the hub died during one; claimed again after the delivering timeout) */
    DELIVERING,
    /** waiting for review: its branch is there (on Forgejo, its pull request is open) */
    OPEN,
    /** the note changed since the draft's base and the edit cannot be re-applied cleanly; nothing was merged */
    CONFLICT,
    /** merged into the vault branch */
    MERGED,
    /** rejected by a reviewer (on Forgejo: the pull request closed without a merge) */
    REJECTED,
    /** Forgejo: every delivery attempt failed; no more retries */
    DELIVERY_FAILED;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Also the names of the first version: {@code delivered} (now open) and {@code failed}. */
    public static DraftStatus of(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "delivered" -> OPEN;
            case "failed" -> DELIVERY_FAILED;
            default -> valueOf(s.toUpperCase(Locale.ROOT));
        };
    }

    /** No further change: retention may delete it. */
    public boolean finished() {
        return this == CONFLICT || this == MERGED || this == REJECTED || this == DELIVERY_FAILED;
    }
}
