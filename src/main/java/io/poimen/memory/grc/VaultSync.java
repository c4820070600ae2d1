package io.poimen.memory.grc;

import io.poimen.memory.config.GitProperties;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.index.ingest.VaultChanges;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.policy.PathMentions;
import io.poimen.memory.security.ReadAccess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.eclipse.jgit.api.PullResult;
import org.eclipse.jgit.lib.ObjectId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of the sync route ({@code routes/git-sync.camel.yaml}) around camel-git's pull: check the working
 * copy, read the commit range the pull brought, hand the vault to the incremental ingest, keep the status.
 * A failure anywhere is recorded and the index keeps serving the last good state.
 */
public class VaultSync {
    public static final String OLD_HEAD = "poimenSyncOldHead";
    public static final String CHANGES = "poimenSyncChanges";
    public static final String NEW_HEAD = "poimenSyncNewHead";
    private static final Logger log = LoggerFactory.getLogger(VaultSync.class);
    private static final int MAX_ERRORS = 20;

    private final VaultGit vault;
    private final GitProperties git;
    private final CallerResolver callers;
    private final Access access;
    private final Clock clock;
    private final Supplier<Set<String>> vaultPaths;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong runs = new AtomicLong();
    private final Deque<SyncStatus.SyncError> errors = new ArrayDeque<>();
    private String lastCommit;
    private String lastSync;
    private String lastAttempt;
    private List<FileChange> filesChanged = List.of();
    private int notesReindexed;

    public VaultSync(VaultGit vault, GitProperties git, CallerResolver callers, Access access, Clock clock,
                     Supplier<Set<String>> vaultPaths) {
        this.vaultPaths = vaultPaths;
        this.vault = vault;
        this.git = git;
        this.callers = callers;
        this.access = access;
        this.clock = clock;
    }

    /** Counts a sync request (webhook or timer); the status shows how many were accepted. */
    public void requested() {
        requests.incrementAndGet();
    }

    /** Before the pull: the working copy must be on the vault branch with no merge in progress. */
    public void prepare(Exchange exchange) throws IOException {
        exchange.setProperty(OLD_HEAD, vault.checkedHead());
    }

    /**
     * After the pull: a pull that did not succeed (it would not fast-forward, or local edits are in the way) is an
     * error. When HEAD moved or the index may be behind (last sync failed), returns what the ingest should read:
     * the diff from the last indexed commit, or the vault root (a whole-vault scan) when there is no such commit
     * yet (first sync since start) or the diff cannot be computed.
     */
    public Object pulled(@Body PullResult result, @ExchangeProperty(OLD_HEAD) ObjectId oldHead, Exchange exchange)
            throws IOException {
        if (result == null || !result.isSuccessful()) {
            String why = result == null ? "no result"
                    : result.getMergeResult() != null ? "merge " + result.getMergeResult().getMergeStatus()
                      + " (the vault only fast-forwards; local commits or edits are in the way)"
                    : result.getRebaseResult() != null ? "rebase " + result.getRebaseResult().getStatus()
                    : "fetch from " + result.getFetchedFrom() + " failed";
            throw new IllegalStateException("git pull of " + git.branch() + " did not succeed: " + why);
        }
        ObjectId newHead = vault.head();
        List<FileChange> changes = vault.changes(oldHead, newHead);
        exchange.setProperty(NEW_HEAD, newHead);
        exchange.setProperty(CHANGES, changes);
        boolean behind = lastCommit == null || !lastCommit.equals(newHead.name()) || hasErrors();
        if (!behind) {
            done(newHead, null, null);
            return null;
        }
        return ingestOf(oldHead, newHead, changes);
    }

    private Object ingestOf(ObjectId oldHead, ObjectId newHead, List<FileChange> pulled) {
        String indexed;
        synchronized (this) {
            indexed = lastCommit;
        }
        if (indexed == null) {
            log.info("sync to {}: first sync since start, whole-vault scan", newHead.name());
            return vault.root();
        }
        try {
            List<FileChange> diff = oldHead != null && indexed.equals(oldHead.name()) ? pulled
                    : vault.changes(ObjectId.fromString(indexed), newHead);
            return changes(vault.root(), indexed, newHead.name(), diff);
        } catch (IOException | RuntimeException e) {
            log.warn("sync to {}: cannot diff from the indexed commit {} ({}); whole-vault scan", newHead.name(),
                    indexed, e.toString());
            return vault.root();
        }
    }

    /** What the ingest reads for the files of {@code diff}: a rename is a delete of its old path. */
    static VaultChanges changes(Path root, String from, String to, List<FileChange> diff) {
        List<String> upserted = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        for (FileChange c : diff) {
            if (c.oldPath() != null) {
                deleted.add(c.oldPath());
            }
            (c.change().equals("deleted") ? deleted : upserted).add(c.path());
        }
        return new VaultChanges(root, from, to, upserted, deleted);
    }

    /** After the ingest: record the synced commit and what changed. */
    public void ingested(@Body IngestReport report, @ExchangeProperty(NEW_HEAD) ObjectId newHead,
                         @ExchangeProperty(CHANGES) List<FileChange> changes) {
        done(newHead, changes, report);
    }

    private synchronized void done(ObjectId head, List<FileChange> changes, IngestReport report) {
        String now = clock.instant().toString();
        runs.incrementAndGet();
        lastAttempt = now;
        boolean moved = !head.name().equals(lastCommit);
        lastCommit = head.name();
        lastSync = now;
        if (report != null && (moved || !changes.isEmpty())) {
            filesChanged = List.copyOf(changes);
            notesReindexed = report.changed() + report.removed();
        }
        if (report != null) {
            log.info("vault synced to {}: {} files changed, {} notes reindexed", head.name(),
                    changes.size(), report.changed() + report.removed());
        }
        errors.clear();
    }

    /** The error step of the sync route: keep the index, record the error. */
    public synchronized void failed(Exchange exchange) {
        Throwable e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        String message = e == null ? "sync failed" : e.getMessage() != null ? e.getMessage() : e.toString();
        String now = clock.instant().toString();
        runs.incrementAndGet();
        lastAttempt = now;
        errors.addLast(new SyncStatus.SyncError(now, message));
        while (errors.size() > MAX_ERRORS) {
            errors.removeFirst();
        }
        log.warn("vault sync failed, still serving commit {}: {}", lastCommit, message);
    }

    public synchronized SyncStatus status() {
        return new SyncStatus(git.enabled(), lastCommit, lastSync, lastAttempt, filesChanged, notesReindexed,
                List.copyOf(new ArrayList<>(errors)), requests.get(), runs.get());
    }

    /**
     * {@code GET /memory/sync/status} for an authenticated caller: changed files only where the caller may read the
     * path (and, for a rename, the old path too); the count of notes reindexed (which counts notes the caller may
     * not read) only for an operator.
     */
    public SyncStatus report(Exchange exchange) {
        Caller caller = callers.caller(exchange);
        String traceId = ExchangeSecurity.traceId(exchange);
        ReadAccess read = access.reads(caller, traceId);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        SyncStatus s = status();
        List<FileChange> visible = s.filesChanged().stream()
                .filter(f -> read.allowsIfNotePath(f.path())
                        && (f.oldPath() == null || read.allowsIfNotePath(f.oldPath())))
                .toList();
        // an error message (a git conflict) may name files too: those the caller may not read are hidden
        List<SyncStatus.SyncError> errors = s.errors().stream().map(e -> new SyncStatus.SyncError(e.at(),
                PathMentions.withoutDenied(e.message(), vaultPaths.get(), read::allowsIfNotePath))).toList();
        return new SyncStatus(s.enabled(), s.lastCommit(), s.lastSync(), s.lastAttempt(), visible,
                access.isAdmin(caller, traceId) ? s.notesReindexed() : null, errors, s.requests(), s.runs());
    }


    private synchronized boolean hasErrors() {
        return !errors.isEmpty();
    }
}
