package io.poimen.memory.grc;

import io.poimen.memory.config.GitProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.PushResult;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.RemoteRefUpdate;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a draft on its branch in the vault's remote: one commit on top of the remote's main branch, with the
 * caller as author, pushed with token auth.
 *
 * <p>The commit is built in the hub's own bare repository ({@code poimen.git.drafts-dir}), never in the vault
 * working copy, so a draft cannot disturb the files the hub serves. Pushing is idempotent: a branch that is
 * already on the remote (a restart after the push) is left as it is.
 */
public class DraftBranches {
    private static final Logger log = LoggerFactory.getLogger(DraftBranches.class);

    private final GitProperties git;
    private final String token;

    public DraftBranches(GitProperties git, String fallbackToken) {
        this.git = git;
        this.token = git.token() != null && !git.token().isBlank() ? git.token() : fallbackToken;
    }

    /**
     * What a push did: whether the draft's branch is on the remote now, and what stands in the way of merging it
     * into the vault branch as it is now (empty: the branch is the draft re-applied on top of it).
     */
    public record Pushed(boolean branch, Map<String, EditConflict> conflicts) {
    }

    /**
     * Re-applies the draft to the remote's vault branch as it is now ({@link DraftRebase}) and pushes the result as
     * the draft's branch, one commit on top of it. When that conflicts, the branch is the draft on the commit it was
     * made from instead, so that its pull request shows the conflict (Forgejo will not merge it as it is); when
     * that commit is not in the remote's history, no branch is pushed. A branch already on the remote (a restart
     * after the push) is left as it is.
     */
    public synchronized Pushed push(Draft draft) {
        String ref = Constants.R_HEADS + draft.branch();
        try (Git repo = openMirror()) {
            Map<String, Ref> remoteHeads = Git.lsRemoteRepository().setRemote(git.remote()).setHeads(true)
                    .setCredentialsProvider(credentials()).callAsMap();
            String base = Constants.R_HEADS + git.branch();
            if (!remoteHeads.containsKey(base)) {
                throw new IllegalStateException("the remote " + git.remote() + " has no branch " + git.branch());
            }
            String tracking = Constants.R_REMOTES + "origin/" + git.branch();
            repo.fetch().setRemote(git.remote()).setCredentialsProvider(credentials())
                    .setRefSpecs(new RefSpec("+" + base + ":" + tracking)).call();
            Repository r = repo.getRepository();
            ObjectId main = r.resolve(tracking);
            VaultTree now = VaultTree.of(r, main);
            DraftRebase.Result rebased = DraftRebase.onto(draft.edit().changes(), now::read, now::version);
            Ref existing = remoteHeads.get(ref);
            if (existing != null) {
                log.info("draft {}: branch {} is already on the remote at {}", draft.id(), draft.branch(),
                        existing.getObjectId().name());
                return new Pushed(true, rebased.conflicts());
            }
            ObjectId parent = main;
            DraftRebase.Result content = rebased;
            if (!rebased.clean()) {
                ObjectId made = draft.edit().baseCommit() == null ? null
                        : ObjectId.fromString(draft.edit().baseCommit());
                if (made == null || !r.getObjectDatabase().has(made)) {
                    log.info("draft {}: conflict with {} in {}, and its base commit is not in the remote's history: "
                            + "no branch", draft.id(), git.branch(), rebased.conflicts().keySet());
                    return new Pushed(false, rebased.conflicts());
                }
                VaultTree then = VaultTree.of(r, made);
                content = DraftRebase.onto(draft.edit().changes(), then::read, then::version);
                if (!content.clean()) {
                    return new Pushed(false, rebased.conflicts());
                }
                parent = made;
            }
            Instant at = Instant.now();
            ObjectId commit = DraftCommits.commit(r, List.of(parent), content.writes(), content.deletes(),
                    DraftCommits.author(draft, at), DraftCommits.hub(git.noreplyDomain(), at),
                    DraftCommits.message(draft));
            RefUpdate update = r.updateRef(ref);
            update.setNewObjectId(commit);
            update.forceUpdate();
            Iterable<PushResult> results = repo.push().setRemote(git.remote()).setCredentialsProvider(credentials())
                    .setRefSpecs(new RefSpec(ref + ":" + ref)).call();
            for (PushResult result : results) {
                for (RemoteRefUpdate u : result.getRemoteUpdates()) {
                    if (u.getStatus() != RemoteRefUpdate.Status.OK
                            && u.getStatus() != RemoteRefUpdate.Status.UP_TO_DATE) {
                        throw new IllegalStateException("push of " + draft.branch() + " rejected: " + u.getStatus()
                                + (u.getMessage() != null ? " (" + u.getMessage() + ")" : ""));
                    }
                }
            }
            log.info("draft {}: pushed {} at {}{}", draft.id(), draft.branch(), commit.name(),
                    rebased.clean() ? "" : " (on its base commit: conflict with " + git.branch() + ")");
            return new Pushed(true, rebased.conflicts());
        } catch (GitAPIException e) {
            throw new IllegalStateException("git failed for draft " + draft.id() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("git failed for draft " + draft.id() + ": " + e.getMessage(), e);
        }
    }

    private Git openMirror() throws IOException, GitAPIException {
        Path dir = git.draftsDir();
        if (Files.isRegularFile(dir.resolve("HEAD"))) {
            return Git.open(dir.toFile());
        }
        Files.createDirectories(dir);
        return Git.init().setBare(true).setDirectory(dir.toFile()).setInitialBranch(git.branch()).call();
    }

    private CredentialsProvider credentials() {
        return token == null || token.isBlank() ? null : new UsernamePasswordCredentialsProvider(git.username(), token);
    }
}
