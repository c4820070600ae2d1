package io.poimen.memory.index.ingest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.util.io.DisabledOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When each note last changed, for the TF-IDF branch's recency factor, worked out at ingest so that no query reads
 * git. In a vault that is a git working copy (a {@code .git} folder in the vault folder, as git sync makes it):
 * the commit time of the newest commit on HEAD's first-parent history that changed the file, for a file whose
 * content is the one HEAD holds. Otherwise — no git, a file not committed, or edited since its last commit — the
 * file's modification time. A shallow clone gives the files last changed before its oldest commit that commit's
 * time.
 */
final class NoteTimes {
    private static final Logger log = LoggerFactory.getLogger(NoteTimes.class);

    private NoteTimes() {
    }

    /** The time of each of {@code paths} (vault-relative, '/'-separated) under {@code vault}. */
    static Map<String, Instant> of(Path vault, Collection<String> paths) {
        Map<String, Instant> out = new HashMap<>();
        if (!paths.isEmpty() && Files.isDirectory(vault.resolve(".git"))) {
            try {
                out.putAll(commitTimes(vault, paths));
            } catch (IOException | RuntimeException e) {
                log.warn("note times of {}: the git history could not be read ({}); file modification times used",
                        vault, e.toString());
                out.clear();
            }
        }
        for (String path : paths) {
            out.computeIfAbsent(path, p -> modified(vault.resolve(p)));
        }
        return Map.copyOf(out);
    }

    /** The commit times of the paths whose file is as HEAD has it. */
    private static Map<String, Instant> commitTimes(Path vault, Collection<String> paths) throws IOException {
        Map<String, Instant> out = new HashMap<>();
        try (Repository repo = new FileRepositoryBuilder().setGitDir(vault.resolve(".git").toFile())
                .setWorkTree(vault.toFile()).setMustExist(true).build();
             RevWalk walk = new RevWalk(repo);
             DiffFormatter diff = new DiffFormatter(DisabledOutputStream.INSTANCE)) {
            ObjectId head = repo.resolve(Constants.HEAD);
            if (head == null) {
                return out; // no commit yet
            }
            RevCommit commit = walk.parseCommit(head);
            Set<String> remaining = unchangedSinceHead(repo, commit, vault, paths);
            diff.setRepository(repo);
            if (!remaining.isEmpty()) {
                // one filter for the whole walk (found paths are skipped): rebuilding it per commit costs O(paths)
                diff.setPathFilter(PathFilterGroup.createFromStrings(remaining));
            }
            while (commit != null && !remaining.isEmpty()) {
                RevCommit parent = commit.getParentCount() == 0 ? null : walk.parseCommit(commit.getParent(0));
                Instant when = Instant.ofEpochSecond(commit.getCommitTime());
                for (DiffEntry e : diff.scan(parent == null ? null : parent.getTree(), commit.getTree())) {
                    if (remaining.remove(e.getNewPath())) {
                        out.put(e.getNewPath(), when);
                    }
                }
                commit = parent;
            }
        }
        return out;
    }

    /** The paths HEAD holds with the content the file has now. */
    private static Set<String> unchangedSinceHead(Repository repo, RevCommit head, Path vault,
                                                  Collection<String> paths) throws IOException {
        Set<String> out = new HashSet<>();
        ObjectInserter.Formatter ids = new ObjectInserter.Formatter();
        try (TreeWalk tree = new TreeWalk(repo)) {
            tree.addTree(head.getTree());
            tree.setRecursive(true);
            tree.setFilter(PathFilterGroup.createFromStrings(paths));
            while (tree.next()) {
                Path file = vault.resolve(tree.getPathString());
                if (Files.isRegularFile(file)
                        && ids.idFor(Constants.OBJ_BLOB, Files.readAllBytes(file)).equals(tree.getObjectId(0))) {
                    out.add(tree.getPathString());
                }
            }
        }
        return out;
    }

    static Instant modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toInstant();
        } catch (IOException e) {
            return Instant.now();
        }
    }
}
