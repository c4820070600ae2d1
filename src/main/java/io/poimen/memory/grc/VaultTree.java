package io.poimen.memory.grc;

import io.poimen.memory.grc.edit.EditPlanner;
import io.poimen.memory.vault.FrontMatterParser;
import io.poimen.memory.vault.VaultPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/** The vault as one commit holds it, read from git's objects (never from the working files). */
final class VaultTree implements EditPlanner.Vault {
    private static final FrontMatterParser FRONT_MATTER = new FrontMatterParser();
    private final Repository repo;
    private final RevCommit commit;
    private final Map<String, ObjectId> files;
    private Map<String, List<String>> aliases;

    private VaultTree(Repository repo, RevCommit commit, Map<String, ObjectId> files) {
        this.repo = repo;
        this.commit = commit;
        this.files = files;
    }

    /** The tree of {@code commit}; an empty vault when it is null (a repository without commits). */
    static VaultTree of(Repository repo, ObjectId commit) throws IOException {
        Map<String, ObjectId> files = new TreeMap<>();
        RevCommit parsed = null;
        if (commit != null) {
            try (RevWalk walk = new RevWalk(repo); TreeWalk tw = new TreeWalk(repo)) {
                parsed = walk.parseCommit(commit);
                tw.addTree(parsed.getTree());
                tw.setRecursive(true);
                while (tw.next()) {
                    if (tw.getFileMode(0) != FileMode.GITLINK) {
                        files.put(tw.getPathString(), tw.getObjectId(0));
                    }
                }
            }
        }
        return new VaultTree(repo, parsed, Collections.unmodifiableMap(files));
    }

    /** The commit, or null for an empty repository. */
    RevCommit commit() {
        return commit;
    }

    @Override
    public Set<String> paths() {
        return files.keySet();
    }

    @Override
    public Optional<String> read(String path) {
        ObjectId blob = files.get(path);
        return blob == null || !VaultPaths.isNote(path) ? Optional.empty() : Optional.of(text(repo, blob));
    }

    /** The version of the file at {@code path} (its blob id), or null when there is none. */
    String version(String path) {
        ObjectId blob = files.get(path);
        return blob == null ? null : blob.name();
    }

    @Override
    public synchronized Map<String, List<String>> aliases() {
        if (aliases == null) {
            Map<String, List<String>> out = new LinkedHashMap<>();
            for (String path : files.keySet()) {
                if (VaultPaths.isNote(path)) {
                    List<String> a = FRONT_MATTER.parse(read(path).orElse("")).aliases();
                    if (!a.isEmpty()) {
                        out.put(path, a);
                    }
                }
            }
            aliases = Collections.unmodifiableMap(out);
        }
        return aliases;
    }

    /** The text of a blob of this repository, or empty when the repository does not hold it. */
    Optional<String> blob(String version) {
        try {
            return Optional.of(text(repo, ObjectId.fromString(version)));
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof MissingObjectException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    static String text(Repository repo, ObjectId blob) {
        try {
            return new String(repo.open(blob).getBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
