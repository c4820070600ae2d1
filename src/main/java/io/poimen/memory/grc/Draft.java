package io.poimen.memory.grc;

import java.time.Instant;
import java.util.Map;

/**
 * A stored draft: who proposed what, how far it got, and its review.
 *
 * @param documentPath the first note it touches (the note of a single-note draft)
 * @param content      the new text of a single-note draft of the first shape ({@code document_path} + {@code content});
 *                     empty for a draft of operations
 * @param edit         what it changes and from which versions
 * @param review       the reviewer's decision
 */
public record Draft(String id, String userSubject, String authorName, String authorEmail, String documentPath,
                    String content, String message, String branch, DraftStatus status, int attempts,
                    String lastError, Integer prNumber, String prUrl, Instant nextAttemptAt, Instant createdAt,
                    Instant updatedAt, Edit edit, Review review) {

    /** A single-note draft as the first version stored it: a write of the whole note, delivered to Forgejo. */
    public Draft(String id, String userSubject, String authorName, String authorEmail, String documentPath,
                 String content, String message, String branch, DraftStatus status, int attempts, String lastError,
                 Integer prNumber, String prUrl, Instant nextAttemptAt, Instant createdAt, Instant updatedAt) {
        this(id, userSubject, authorName, authorEmail, documentPath, content, message, branch, status, attempts,
                lastError, prNumber, prUrl, nextAttemptAt, createdAt, updatedAt,
                new Edit(ReviewHost.FORGEJO, null, DraftChanges.write(documentPath, content), null, Map.of()),
                Review.NONE);
    }

    /**
     * @param host       where it is reviewed
     * @param operations the operations as sent (JSON), null for a draft of the first shape
     * @param changes    their result, and the versions it was made from
     * @param baseCommit the vault commit the draft's branch was first made on
     * @param conflicts  path → what stands in the way (the text with git's conflict markers, or why), when
     *                   {@code conflict}
     */
    public record Edit(ReviewHost host, String operations, DraftChanges changes, String baseCommit,
                       Map<String, EditConflict> conflicts) {
        public Edit {
            conflicts = conflicts == null ? Map.of() : Map.copyOf(conflicts);
        }
    }

    /**
     * @param reviewer         who approved or rejected it (subject)
     * @param comment          the reviewer's comment
     * @param decidedAt        when
     * @param mergeRequestedAt approved, waiting for the writer to merge it (null once merged or never approved)
     * @param mergeCommit      the vault commit that holds it, once merged
     */
    public record Review(String reviewer, String comment, Instant decidedAt, Instant mergeRequestedAt,
                         String mergeCommit) {
        public static final Review NONE = new Review(null, null, null, null, null);
    }
}
