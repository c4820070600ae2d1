package io.poimen.memory.grc;

import io.poimen.memory.config.GitProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEditor;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
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
    private static final String TRAILER = "Poimen-Draft: ";

    private final GitProperties git;
    private final String token;

    public DraftBranches(GitProperties git, String fallbackToken) {
        this.git = git;
        this.token = git.token() != null && !git.token().isBlank() ? git.token() : fallbackToken;
    }

    /** Pushes the draft's branch unless the remote has it already; returns the branch's commit id. */
    public synchronized String push(Draft draft) {
        String ref = Constants.R_HEADS + draft.branch();
        try (Git repo = openMirror()) {
            Map<String, Ref> remoteHeads = Git.lsRemoteRepository().setRemote(git.remote()).setHeads(true)
                    .setCredentialsProvider(credentials()).callAsMap();
            Ref existing = remoteHeads.get(ref);
            if (existing != null) {
                log.info("draft {}: branch {} is already on the remote at {}", draft.id(), draft.branch(),
                        existing.getObjectId().name());
                return existing.getObjectId().name();
            }
            String base = Constants.R_HEADS + git.branch();
            if (!remoteHeads.containsKey(base)) {
                throw new IllegalStateException("the remote " + git.remote() + " has no branch " + git.branch());
            }
            String tracking = Constants.R_REMOTES + "origin/" + git.branch();
            repo.fetch().setRemote(git.remote()).setCredentialsProvider(credentials())
                    .setRefSpecs(new RefSpec("+" + base + ":" + tracking)).call();
            ObjectId commit = commit(repo.getRepository(), repo.getRepository().resolve(tracking), draft);
            RefUpdate update = repo.getRepository().updateRef(ref);
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
            log.info("draft {}: pushed {} at {}", draft.id(), draft.branch(), commit.name());
            return commit.name();
        } catch (GitAPIException e) {
            throw new IllegalStateException("git failed for draft " + draft.id() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("git failed for draft " + draft.id() + ": " + e.getMessage(), e);
        }
    }

    /** One commit: the base tree with the note replaced (or added), author = the caller, committer = the hub. */
    private ObjectId commit(Repository repo, ObjectId base, Draft draft) throws IOException {
        try (ObjectInserter inserter = repo.newObjectInserter(); RevWalk walk = new RevWalk(repo)) {
            RevCommit parent = walk.parseCommit(base);
            ObjectId blob = inserter.insert(Constants.OBJ_BLOB, draft.content().getBytes(StandardCharsets.UTF_8));
            DirCache index = DirCache.read(repo.newObjectReader(), parent.getTree());
            DirCacheEditor editor = index.editor();
            editor.add(new DirCacheEditor.PathEdit(draft.documentPath()) {
                @Override
                public void apply(DirCacheEntry entry) {
                    entry.setFileMode(FileMode.REGULAR_FILE);
                    entry.setObjectId(blob);
                }
            });
            editor.finish();
            ObjectId tree = index.writeTree(inserter);
            Instant now = Instant.now();
            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(tree);
            commit.setParentId(parent);
            commit.setAuthor(new PersonIdent(draft.authorName(), draft.authorEmail(), now, ZoneOffset.UTC));
            commit.setCommitter(new PersonIdent("poimen-memory", "poimen-memory@" + git.noreplyDomain(), now,
                    ZoneOffset.UTC));
            commit.setMessage(draft.message() + "\n\n" + TRAILER + draft.id() + "\n");
            ObjectId id = inserter.insert(commit);
            inserter.flush();
            return id;
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
