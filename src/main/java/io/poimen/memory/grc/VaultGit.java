package io.poimen.memory.grc;

import io.poimen.memory.config.GitProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.lib.ConfigConstants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryState;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.eclipse.jgit.util.io.DisabledOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.FileSystemUtils;

/**
 * The vault's git working copy: cloned from {@code poimen.git.remote} when missing, and configured so that
 * {@code git pull} only ever fast-forwards ({@code pull.ff=only}). A pull that cannot fast-forward, or a working
 * copy with conflicting local edits, fails without touching the files: the hub keeps serving what it has.
 */
public class VaultGit {
    private static final Logger log = LoggerFactory.getLogger(VaultGit.class);
    private final Path root;
    private final GitProperties git;
    private final String token;

    public VaultGit(Path root, GitProperties git, String fallbackToken) {
        this.root = root.toAbsolutePath().normalize();
        this.git = git;
        this.token = git.token() != null && !git.token().isBlank() ? git.token() : fallbackToken;
    }

    public Path root() {
        return root;
    }

    /** At start (sync enabled): clone into a missing or empty vault folder, else check and configure the clone. */
    public void prepare() {
        if (!git.hasRemote()) {
            throw new IllegalStateException("poimen.git.enabled is true but poimen.git.remote is not set");
        }
        try {
            if (Files.isDirectory(root.resolve(".git"))) {
                configure();
                return;
            }
            if (Files.exists(root) && !isEmptyDir(root)) {
                throw new IllegalStateException("the vault folder " + root + " exists and is not a git working copy; "
                        + "move it away to let the hub clone " + git.remote() + ", or set poimen.git.enabled=false");
            }
            Files.createDirectories(root);
            var clone = Git.cloneRepository().setURI(git.remote()).setDirectory(root.toFile())
                    .setBranch(git.branch()).setRemote("origin");
            if (token != null && !token.isBlank()) {
                clone.setCredentialsProvider(new UsernamePasswordCredentialsProvider(git.username(), token));
            }
            try (Git cloned = clone.call()) {
                log.info("cloned {} ({}) into {}", git.remote(), git.branch(), root);
            }
            configure();
        } catch (GitAPIException e) {
            throw new IllegalStateException("cannot clone " + git.remote() + " into " + root + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * At start with sync off: the vault folder becomes the hub's own git repository where drafts are branches and an
     * approved draft is merged. A missing or empty folder is first filled from {@code seed} (a folder; {@code none}
     * or blank: start empty); a folder that is not a git working copy is made one, everything in it committed. Says
     * what it did in the log. False (with a warning) when the folder cannot be made one (read-only): the vault is
     * still served, and review answers 503.
     */
    public boolean prepareLocal(String seed) {
        try {
            if (Files.isDirectory(root.resolve(".git"))) {
                return true;
            }
            if ((!Files.exists(root) || isEmptyDir(root)) && seed != null && !seed.isBlank() && !seed.equals("none")) {
                Path from = Path.of(seed).toAbsolutePath().normalize();
                if (!Files.isDirectory(from)) {
                    throw new IOException("the seed folder " + from + " does not exist");
                }
                FileSystemUtils.copyRecursively(from, root);
                log.info("the vault folder {} was missing or empty: copied {} into it", root, from);
            }
            Files.createDirectories(root);
            try (Git g = Git.init().setDirectory(root.toFile()).setInitialBranch(git.branch()).call()) {
                g.add().addFilepattern(".").call();
                PersonIdent hub = new PersonIdent("poimen-memory", "poimen-memory@" + git.noreplyDomain());
                g.commit().setMessage("Vault as found by poimen-memory").setAuthor(hub).setCommitter(hub)
                        .setAllowEmpty(true).setSign(false).call();
                long files;
                try (Stream<Path> all = Files.walk(root)) {
                    files = all.filter(p -> Files.isRegularFile(p) && !root.relativize(p).startsWith(".git")).count();
                }
                log.info("the vault folder {} was not a git working copy: made it one on branch {} ({} files "
                        + "committed); drafts become branches there and approved drafts are merged into {}", root,
                        git.branch(), files, git.branch());
            }
            return true;
        } catch (IOException | GitAPIException | RuntimeException e) {
            log.warn("the vault folder {} cannot be made a git working copy ({}); edits through review are off",
                    root, e.getMessage());
            return false;
        }
    }

    /** Upstream of the vault branch is origin's, and pulls fast-forward only; set only where missing. */
    private void configure() throws IOException {
        try (Git g = Git.open(root.toFile())) {
            StoredConfig config = g.getRepository().getConfig();
            boolean changed = false;
            if (config.getString(ConfigConstants.CONFIG_REMOTE_SECTION, "origin", ConfigConstants.CONFIG_KEY_URL) == null) {
                config.setString(ConfigConstants.CONFIG_REMOTE_SECTION, "origin", ConfigConstants.CONFIG_KEY_URL,
                        git.remote());
                config.setString(ConfigConstants.CONFIG_REMOTE_SECTION, "origin", "fetch",
                        "+refs/heads/*:refs/remotes/origin/*");
                changed = true;
            }
            String branch = git.branch();
            if (config.getString(ConfigConstants.CONFIG_BRANCH_SECTION, branch, ConfigConstants.CONFIG_KEY_MERGE) == null) {
                config.setString(ConfigConstants.CONFIG_BRANCH_SECTION, branch, ConfigConstants.CONFIG_KEY_REMOTE, "origin");
                config.setString(ConfigConstants.CONFIG_BRANCH_SECTION, branch, ConfigConstants.CONFIG_KEY_MERGE,
                        "refs/heads/" + branch);
                changed = true;
            }
            if (!"only".equals(config.getString(ConfigConstants.CONFIG_PULL_SECTION, null, ConfigConstants.CONFIG_KEY_FF))) {
                config.setString(ConfigConstants.CONFIG_PULL_SECTION, null, ConfigConstants.CONFIG_KEY_FF, "only");
                changed = true;
            }
            if (changed) {
                config.save();
                log.info("configured the vault working copy {}: upstream origin/{}, pull.ff=only", root, branch);
            }
        }
    }

    /** HEAD of the working copy, after checking it can be pulled safely (no merge in progress, right branch). */
    public ObjectId checkedHead() throws IOException {
        try (Repository repo = Git.open(root.toFile()).getRepository()) {
            if (repo.getRepositoryState() != RepositoryState.SAFE) {
                throw new IllegalStateException("the vault working copy is in state " + repo.getRepositoryState()
                        + "; resolve it by hand (the hub does not reset it)");
            }
            if (!git.branch().equals(repo.getBranch())) {
                throw new IllegalStateException("the vault working copy is on " + repo.getBranch() + ", not "
                        + git.branch() + "; check out " + git.branch() + " by hand");
            }
            return repo.resolve("HEAD");
        }
    }

    public ObjectId head() throws IOException {
        try (Repository repo = Git.open(root.toFile()).getRepository()) {
            return repo.resolve("HEAD");
        }
    }

    /** Files that differ between two commits. */
    public List<FileChange> changes(ObjectId from, ObjectId to) throws IOException {
        List<FileChange> changes = new ArrayList<>();
        if (to == null || to.equals(from)) {
            return changes;
        }
        try (Repository repo = Git.open(root.toFile()).getRepository(); RevWalk walk = new RevWalk(repo);
             DiffFormatter diff = new DiffFormatter(DisabledOutputStream.INSTANCE)) {
            diff.setRepository(repo);
            diff.setDetectRenames(true);
            var oldTree = from == null ? null : walk.parseCommit(from).getTree();
            var newTree = walk.parseCommit(to).getTree();
            for (DiffEntry e : diff.scan(oldTree, newTree)) {
                switch (e.getChangeType()) {
                    case ADD, COPY -> changes.add(new FileChange(e.getNewPath(), "added", null));
                    case MODIFY -> changes.add(new FileChange(e.getNewPath(), "modified", null));
                    case DELETE -> changes.add(new FileChange(e.getOldPath(), "deleted", null));
                    case RENAME -> changes.add(new FileChange(e.getNewPath(), "renamed", e.getOldPath()));
                }
            }
        }
        return changes;
    }

    private static boolean isEmptyDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }
}
