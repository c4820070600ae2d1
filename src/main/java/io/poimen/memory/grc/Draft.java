package io.poimen.memory.grc;

import java.time.Instant;

/** A stored edit: what the caller wrote, and how far its delivery to Forgejo got. */
public record Draft(String id, String userSubject, String authorName, String authorEmail, String documentPath,
                    String content, String message, String branch, DraftStatus status, int attempts,
                    String lastError, Integer prNumber, String prUrl, Instant nextAttemptAt, Instant createdAt,
                    Instant updatedAt) {
}
