package io.poimen.memory.mcp;

import io.poimen.memory.security.Access;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.policy.PathMentions;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.api.ApiException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.camel.Exchange;
import org.apache.camel.Header;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.util.io.DisabledOutputStream;

/**
 * {@code recent_changes}: the notes changed since a commit (exclusive) or a time, read from the git history of the
 * vault working copy, newest first, one entry per note (its latest change), only notes the caller may read; paths
 * of notes the caller may not read are hidden in the commit messages.
 */
public class VaultHistory {
    static final int MAX_COMMITS = 1000;
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    private static final Pattern COMMIT = Pattern.compile("[0-9a-fA-F]{7,40}");

    public record Change(String path, String change, String oldPath, String commit, String time, String message) {
    }

    public record Changes(String since, String head, List<Change> changes, boolean truncated) {
    }

    private final Path vault;
    private final CallerResolver callers;
    private final Access checks;
    private final java.util.function.Supplier<java.util.Set<String>> vaultPaths;

    public VaultHistory(Path vault, CallerResolver callers, Access checks,
                        java.util.function.Supplier<java.util.Set<String>> vaultPaths) {
        this.vaultPaths = vaultPaths;
        this.vault = vault;
        this.callers = callers;
        this.checks = checks;
    }

    public Changes since(Exchange exchange, @Header("since") String since, @Header("limit") Integer limit) {
        if (since == null || since.isBlank()) {
            throw ApiException.badRequest("since is required: a commit id or an ISO-8601 time");
        }
        int max = limit == null ? DEFAULT_LIMIT : limit;
        if (max < 1 || max > MAX_LIMIT) {
            throw ApiException.unprocessable("limit must be between 1 and " + MAX_LIMIT + ", got " + max);
        }
        Caller caller = callers.caller(exchange);
        String trace = ExchangeSecurity.traceId(exchange);
        boolean commit = COMMIT.matcher(since.trim()).matches();
        Instant after = commit ? null : time(since.trim()); // a malformed since is the caller's 400, checked first
        if (!Files.isDirectory(vault.resolve(".git"))) {
            throw new ApiException(503, "no_history", "the vault is not a git working copy");
        }
        try (Git git = Git.open(vault.toFile()); RevWalk walk = new RevWalk(git.getRepository());
             DiffFormatter diff = new DiffFormatter(DisabledOutputStream.INSTANCE)) {
            Repository repo = git.getRepository();
            diff.setRepository(repo);
            diff.setDetectRenames(true);
            ObjectId head = repo.resolve("HEAD");
            if (head == null) {
                return new Changes(since, null, List.of(), false);
            }
            walk.markStart(walk.parseCommit(head));
            if (commit) {
                try {
                    ObjectId from = repo.resolve(since.trim() + "^{commit}");
                    if (from == null) {
                        throw new org.eclipse.jgit.errors.MissingObjectException(ObjectId.zeroId(), "commit");
                    }
                    walk.markUninteresting(walk.parseCommit(from));
                } catch (org.eclipse.jgit.errors.MissingObjectException e) {
                    throw ApiException.notFound("no such commit in the vault history: " + since);
                }
            }
            Map<String, Change> latest = new LinkedHashMap<>();
            Map<String, Boolean> allowed = new LinkedHashMap<>();
            int commits = 0;
            boolean truncated = false;
            for (RevCommit c : walk) {
                Instant when = Instant.ofEpochSecond(c.getCommitTime());
                if (after != null && !when.isAfter(after)) {
                    break;
                }
                if (++commits > MAX_COMMITS || latest.size() >= max) {
                    truncated = true;
                    break;
                }
                var parentTree = c.getParentCount() == 0 ? null : walk.parseCommit(c.getParent(0)).getTree();
                for (DiffEntry e : diff.scan(parentTree, c.getTree())) {
                    String path = e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath();
                    if (!VaultPaths.isNote(path) || latest.containsKey(path) || latest.size() >= max
                            || !allowed.computeIfAbsent(path, p -> checks.allows(caller, p, trace))) {
                        continue;
                    }
                    String old = e.getChangeType() == DiffEntry.ChangeType.RENAME
                            && allowed.computeIfAbsent(e.getOldPath(), p -> checks.allows(caller, p, trace))
                            ? e.getOldPath() : null;
                    // the message may name other notes of the commit: those the caller may not read are hidden
                    String message = PathMentions.withoutDenied(c.getShortMessage(), vaultPaths.get(),
                            p -> allowed.computeIfAbsent(p, x -> mentionAllowed(caller, x, trace)));
                    latest.put(path, new Change(path, change(e.getChangeType()), old, c.getName(), when.toString(),
                            message));
                }
            }
            return new Changes(since, head.getName(), List.copyOf(latest.values()), truncated);
        } catch (IOException e) {
            throw new ApiException(503, "no_history", "the vault history could not be read: " + e.getMessage());
        }
    }

    /** A path named in free text may be malformed: anything but a clean allow hides it. */
    private boolean mentionAllowed(Caller caller, String path, String trace) {
        try {
            checks.requireRead(caller, path, trace);
            return true;
        } catch (ApiException e) {
            return false;
        }
    }

    private static Instant time(String text) {
        try {
            return text.length() == 10 ? Instant.parse(text + "T00:00:00Z") : Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("since must be a commit id or an ISO-8601 time such as "
                    + "2026-12-01T00:00:00Z, got: " + text);
        }
    }

    private static String change(DiffEntry.ChangeType type) {
        return switch (type) {
            case ADD, COPY -> "added";
            case MODIFY -> "modified";
            case DELETE -> "deleted";
            case RENAME -> "renamed";
        };
    }
}
