package io.poimen.memory.grc;

import java.util.List;

/**
 * What {@code GET /memory/sync/status} answers.
 *
 * @param enabled       whether the hub follows the remote at all
 * @param lastCommit    commit the index was last synced to (null before the first sync)
 * @param lastSync      when that sync finished (ISO-8601)
 * @param lastAttempt   when the latest sync attempt finished, successful or not
 * @param filesChanged  files changed by the latest successful sync that moved HEAD
 * @param notesReindexed notes re-embedded by that sync's ingest, a vault-wide count: shown to operators only (null,
 *                       and left out of the JSON, for other callers)
 * @param errors        errors since the last successful sync, oldest first (at most 20); empty when healthy
 * @param requests      sync requests accepted so far (webhooks and timer)
 * @param runs          sync runs finished so far, successful or not
 */
public record SyncStatus(boolean enabled, String lastCommit, String lastSync, String lastAttempt,
                         List<FileChange> filesChanged, Integer notesReindexed, List<SyncError> errors, long requests,
                         long runs) {

    /** @param at ISO-8601 time; @param message what went wrong */
    public record SyncError(String at, String message) {
    }
}
