package io.poimen.memory.grc;

import io.poimen.memory.grc.edit.EditPlanner;
import io.poimen.memory.vault.NoteVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilter;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * The vault as an editor read it: the vault branch's notes, with each note the editor names a version of in that
 * version. A version is found only among the note's own versions (its history on the branch, or the file as the
 * hub serves it now), so a version id names no other note's text.
 */
final class BaseVersions implements EditPlanner.Vault {
    static final int MAX_HISTORY = 1000;

    /** A version the editor sent that is not one of the note's. */
    static final class Unknown extends Exception {
        final String path;
        final String version;

        Unknown(String path, String version) {
            super(path + " never had the version " + version);
            this.path = path;
            this.version = version;
        }
    }

    private final VaultTree head;
    private final Map<String, Optional<String>> texts = new LinkedHashMap<>();
    private Set<String> paths;

    private BaseVersions(VaultTree head) {
        this.head = head;
    }

    /**
     * @param versions path → version ("" for a note that did not exist)
     * @param workTree the vault folder, whose files may be ahead of the branch (edited, not committed)
     */
    static BaseVersions of(Repository repo, VaultTree head, Map<String, String> versions, Path workTree)
            throws IOException, Unknown {
        BaseVersions view = new BaseVersions(head);
        for (Map.Entry<String, String> e : versions.entrySet()) {
            String path = e.getKey();
            String version = e.getValue();
            if (version.isEmpty()) {
                view.texts.put(path, Optional.empty());
            } else if (!version.equals(head.version(path))) {
                view.texts.put(path, Optional.of(find(repo, head, path, version, workTree)
                        .orElseThrow(() -> new Unknown(path, version))));
            }
        }
        return view;
    }

    private static Optional<String> find(Repository repo, VaultTree head, String path, String version, Path workTree)
            throws IOException {
        Path file = workTree.resolve(path).normalize();
        if (file.startsWith(workTree) && Files.isRegularFile(file)) {
            byte[] bytes = Files.readAllBytes(file);
            if (NoteVersion.of(bytes).equals(version)) {
                return Optional.of(new String(bytes, StandardCharsets.UTF_8));
            }
        }
        if (head.commit() == null) {
            return Optional.empty();
        }
        ObjectId wanted = ObjectId.fromString(version);
        try (RevWalk walk = new RevWalk(repo)) {
            walk.setTreeFilter(AndTreeFilter.create(PathFilter.create(path), TreeFilter.ANY_DIFF));
            walk.markStart(walk.parseCommit(head.commit()));
            int seen = 0;
            for (RevCommit c : walk) {
                if (++seen > MAX_HISTORY) {
                    break;
                }
                try (TreeWalk tw = TreeWalk.forPath(repo, path, c.getTree())) {
                    if (tw != null && tw.getObjectId(0).equals(wanted)) {
                        return Optional.of(VaultTree.text(repo, wanted));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The version the editor started from: theirs where they sent one, else the branch's now ("" for none). */
    String version(String path) {
        Optional<String> given = texts.get(path);
        if (given == null) {
            String v = head.version(path);
            return v == null ? "" : v;
        }
        return given.map(NoteVersion::of).orElse("");
    }

    @Override
    public synchronized Set<String> paths() {
        if (paths != null) {
            return paths;
        }
        Set<String> all = new TreeSet<>(head.paths());
        texts.forEach((path, text) -> {
            if (text.isPresent()) {
                all.add(path);
            } else {
                all.remove(path);
            }
        });
        paths = java.util.Collections.unmodifiableSet(all);
        return paths;
    }

    @Override
    public Optional<String> read(String path) {
        Optional<String> given = texts.get(path);
        return given != null ? given : head.read(path);
    }

    @Override
    public Map<String, List<String>> aliases() {
        return head.aliases();
    }
}
