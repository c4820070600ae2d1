package io.poimen.memory.grc;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.index.ingest.VaultChanges;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.ExchangeProperty;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.MergeCommand;
import org.eclipse.jgit.api.MergeResult;
import org.eclipse.jgit.api.errors.CheckoutConflictException;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryState;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub as review host: a draft is a branch in the vault's own repository, one commit of all its changes on the
 * vault branch as it was; an approved draft is merged into the vault branch (a fast-forward, or a merge commit whose
 * tree is the draft re-applied to the branch as it is then, {@link DraftRebase}) and the working files follow. Only
 * the writer merges; merges are one at a time. The merge route then runs the same incremental ingest as a pull, on
 * the files changed since the last commit this hub indexed (so a commit made in the vault folder by hand is indexed
 * with the next merge). A draft's branch lives as long as the draft is open or in conflict ({@link #prune}).
 */
public class LocalReview {
    private static final Logger log = LoggerFactory.getLogger(LocalReview.class);
    private static final int ATTEMPTS = 5;
    /** A draft branch whose draft is not stored is deleted only once it is this old. */
    static final Duration ORPHAN_AGE = Duration.ofHours(1);
    /** Exchange property: what a merge changed, for the ingest and {@link #ingested}. */
    public static final String MERGED = "grcMerged";

    private final VaultGit vault;
    private final DraftStore drafts;
    private final GitProperties git;
    private final Clock clock;
    private String indexed;

    public LocalReview(VaultGit vault, DraftStore drafts, GitProperties git, Clock clock) {
        this.vault = vault;
        this.drafts = drafts;
        this.git = git;
        this.clock = clock;
    }

    String vaultRef() {
        return Constants.R_HEADS + git.branch();
    }

    /** The draft's branch: one commit of {@code changes} on {@code head} (the vault branch when it was made). */
    void branch(Repository repo, VaultTree head, Draft draft, DraftRebase.Result changes) throws IOException {
        Instant now = clock.instant();
        List<ObjectId> parents = head.commit() == null ? List.of() : List.of(head.commit());
        ObjectId commit = DraftCommits.commit(repo, parents, changes.writes(), changes.deletes(),
                DraftCommits.author(draft, now), DraftCommits.hub(git.noreplyDomain(), now),
                DraftCommits.message(draft));
        RefUpdate ref = repo.updateRef(Constants.R_HEADS + draft.branch());
        ref.setExpectedOldObjectId(ObjectId.zeroId());
        ref.setNewObjectId(commit);
        ref.setRefLogMessage("draft " + draft.id(), false);
        RefUpdate.Result result = ref.update();
        if (result != RefUpdate.Result.NEW) {
            throw new IllegalStateException("branch " + draft.branch() + " could not be created: " + result);
        }
        log.info("draft {}: branch {} at {} for review on the hub", draft.id(), draft.branch(), commit.name());
    }

    /** Approved drafts the writer still has to merge (an approval on another replica, or a merge cut short). */
    public List<String> requested() {
        return drafts.mergeRequested(20);
    }

    /**
     * The merge step of an approved draft: merged (the answer is what the ingest should read), or {@code conflict}
     * when the draft cannot be re-applied cleanly (nothing merged; null). A vault folder whose uncommitted changes
     * are in the way is 409 {@code vault_dirty}: the draft stays approved and is merged once they are committed.
     */
    public synchronized VaultChanges merge(@ExchangeProperty(DraftDelivery.DRAFT_ID) String id) {
        Draft draft = drafts.find(id).orElseThrow(() -> ApiException.notFound("draft " + id + " not found"));
        if (draft.status() != DraftStatus.OPEN || draft.review().mergeRequestedAt() == null) {
            return null;
        }
        try (Git g = Git.open(vault.root().toFile())) {
            Repository repo = g.getRepository();
            if (repo.getRepositoryState() != RepositoryState.SAFE || !git.branch().equals(repo.getBranch())) {
                throw dirty(id, "the vault working copy is " + repo.getRepositoryState() + " on " + repo.getBranch()
                        + ", not " + git.branch() + "; resolve it by hand");
            }
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                ObjectId head = repo.resolve(vaultRef());
                VaultTree now = VaultTree.of(repo, head);
                DraftRebase.Result r = DraftRebase.onto(draft.edit().changes(), now::read, now::version);
                if (!r.clean()) {
                    drafts.conflicted(id, r.conflicts(), clock.instant());
                    log.info("draft {} not merged: conflict in {}", id, r.conflicts().keySet());
                    return null;
                }
                if (r.changesNothing()) {
                    drafts.merged(id, head.name(), clock.instant());
                    deleteBranch(repo, draft);
                    return catchUp(repo, head);
                }
                ObjectId commit = mergeCommit(repo, head, draft, r);
                MergeResult result;
                try {
                    result = g.merge().include(commit).setFastForward(MergeCommand.FastForwardMode.FF_ONLY)
                            .setCommit(true).call();
                } catch (CheckoutConflictException e) {
                    throw dirty(id, "uncommitted changes in the vault folder are in the way of "
                            + e.getConflictingPaths() + "; commit them and approve again");
                }
                switch (result.getMergeStatus()) {
                    case FAST_FORWARD, ALREADY_UP_TO_DATE -> {
                        drafts.merged(id, commit.name(), clock.instant());
                        log.info("draft {} merged into {} at {} (approved by {})", id, git.branch(), commit.name(),
                                draft.review().reviewer());
                        deleteBranch(repo, draft);
                        return catchUp(repo, head);
                    }
                    case FAILED -> throw dirty(id, "uncommitted changes in the vault folder are in the way of "
                            + (result.getFailingPaths() == null ? "the merge" : result.getFailingPaths().keySet())
                            + "; commit them and approve again");
                    default -> log.info("draft {}: the vault branch moved during the merge ({}), again",
                            id, result.getMergeStatus());
                }
            }
            throw new IllegalStateException("the vault branch kept moving; draft " + id + " is still approved");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GitAPIException e) {
            throw new IllegalStateException("merge of draft " + id + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Deletes the branches of finished drafts from the vault repository: merged (the branch is in the vault branch's
     * history) or rejected, and those whose draft is no longer stored (retention deleted it) once the branch is older
     * than {@link #ORPHAN_AGE} (younger, its draft may be being stored right now). The branch of an open or
     * conflicting draft stays: it is what a reviewer looks at. Run by the writer's timer, and after a rejection on
     * the writer; a failure is logged, never thrown (the next run tries again).
     *
     * @return how many branches were deleted
     */
    public synchronized int prune() {
        if (!Files.isDirectory(vault.root().resolve(".git"))) {
            return 0;
        }
        int deleted = 0;
        try (Git g = Git.open(vault.root().toFile()); RevWalk walk = new RevWalk(g.getRepository())) {
            Repository repo = g.getRepository();
            for (Ref ref : repo.getRefDatabase().getRefsByPrefix(Constants.R_HEADS + BranchNames.PREFIX)) {
                RevCommit tip = walk.parseCommit(ref.getObjectId());
                String id = DraftCommits.draftId(tip.getFullMessage());
                if (id == null) {
                    continue; // not a draft's branch
                }
                Draft draft = drafts.find(id).orElse(null);
                boolean finished = draft == null
                        ? tip.getCommitterIdent().getWhenAsInstant().isBefore(clock.instant().minus(ORPHAN_AGE))
                        : draft.status() == DraftStatus.MERGED || draft.status() == DraftStatus.REJECTED;
                if (finished && delete(repo, ref.getName(), id)) {
                    deleted++;
                }
            }
        } catch (IOException | RuntimeException e) {
            log.warn("draft branches not pruned: {}", e.toString());
        }
        return deleted;
    }

    private void deleteBranch(Repository repo, Draft draft) throws IOException {
        delete(repo, Constants.R_HEADS + draft.branch(), draft.id());
    }

    private static boolean delete(Repository repo, String ref, String id) throws IOException {
        if (repo.exactRef(ref) == null) {
            return false;
        }
        RefUpdate update = repo.updateRef(ref);
        update.setForceUpdate(true);
        RefUpdate.Result result = update.delete();
        boolean done = result == RefUpdate.Result.FORCED || result == RefUpdate.Result.NO_CHANGE;
        if (done) {
            log.info("draft {}: branch {} deleted", id, Repository.shortenRefName(ref));
        } else {
            log.warn("draft {}: branch {} not deleted: {}", id, Repository.shortenRefName(ref), result);
        }
        return done;
    }

    /** After the ingest of a merge: the index holds the vault branch up to {@code to}. */
    public synchronized void ingested(@ExchangeProperty(MERGED) VaultChanges changes) {
        indexed = changes.to();
    }

    /** The draft's own commit when it sits on {@code head} and holds exactly this; else a merge commit. */
    private ObjectId mergeCommit(Repository repo, ObjectId head, Draft draft, DraftRebase.Result r)
            throws IOException {
        ObjectId tip = repo.resolve(Constants.R_HEADS + draft.branch());
        Instant now = clock.instant();
        ObjectId merged = DraftCommits.commit(repo, tip == null ? List.of(head) : List.of(head, tip), r.writes(),
                r.deletes(), DraftCommits.author(draft, now), DraftCommits.hub(git.noreplyDomain(), now),
                "Merge draft: " + draft.message() + "\n\nApproved-by: " + draft.review().reviewer() + "\n"
                        + DraftCommits.TRAILER + draft.id() + "\n");
        if (tip != null && isChildOf(repo, tip, head) && DraftCommits.sameTree(repo, tip, merged)) {
            return tip;
        }
        return merged;
    }

    private static boolean isChildOf(Repository repo, ObjectId commit, ObjectId parent) throws IOException {
        try (RevWalk walk = new RevWalk(repo)) {
            var c = walk.parseCommit(commit);
            return c.getParentCount() == 1 && c.getParent(0).equals(parent);
        }
    }

    /** The files changed since the commit last indexed (or since {@code before}, the branch before this merge). */
    private VaultChanges catchUp(Repository repo, ObjectId before) throws IOException {
        ObjectId to = repo.resolve(vaultRef());
        String from;
        synchronized (this) {
            from = indexed != null ? indexed : before.name();
        }
        if (from.equals(to.name())) {
            return null;
        }
        List<FileChange> diff;
        try {
            diff = vault.changes(ObjectId.fromString(from), to);
        } catch (IOException | RuntimeException e) {
            diff = vault.changes(before, to);
        }
        return VaultSync.changes(vault.root(), from, to.name(), new ArrayList<>(diff));
    }

    private ApiException dirty(String id, String why) {
        drafts.mergeFailed(id, why, clock.instant());
        return new ApiException(409, "vault_dirty", why);
    }
}
