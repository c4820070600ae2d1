package io.poimen.memory.vault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * Lists a vault's files. Skips hidden entries (which covers {@code .git}, {@code .obsidian} and {@code .trash})
 * and every symbolic link. A link that points outside the vault would leak files; one that points inside
 * would list the same note twice under two paths, possibly under another project's access policy, while its
 * target is listed anyway under its own path. Also skipped and reported: FIFOs, sockets and devices (reading one
 * could block the ingest), entries that cannot be read, names that are not valid UTF-8 (their path as text
 * would name another file), and near-misses of the policy file name ({@link PolicyFileNames}: never a note). Everything
 * skipped is in {@link VaultSnapshot#skipped()} with its reason.
 */
@Component
public class VaultScanner {
    public static final String ACCESS_FILE = PolicyFileNames.POLICY_FILE;
    static final String NOT_UTF8 = "file name is not valid UTF-8; rename it to index it";
    public static final String NEAR_MISS = "a near-miss of the policy file name " + ACCESS_FILE
            + ": not a note, and its folder's policy is rejected while it is there (rename or remove it)";

    public VaultSnapshot scan(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("vault is not a directory: " + root);
        }
        List<String> files = new ArrayList<>();
        Map<String, String> skipped = new TreeMap<>();
        try {
            Files.walkFileTree(root, new Visitor(root, root.toRealPath(), files, skipped));
        } catch (IOException e) {
            throw new UncheckedIOException("vault scan failed: " + root, e);
        }
        files.sort(null);
        List<String> markdown = files.stream().filter(VaultPaths::isNote).toList();
        List<String> access = files.stream().filter(f -> LinkResolver.fileName(f).equals(ACCESS_FILE)).toList();
        return new VaultSnapshot(root, List.copyOf(files), markdown, access, skipped);
    }

    private static final class Visitor extends SimpleFileVisitor<Path> {
        private final Path root;
        private final Path realRoot;
        private final List<String> files;
        private final Map<String, String> skipped;

        Visitor(Path root, Path realRoot, List<String> files, Map<String, String> skipped) {
            this.root = root;
            this.realRoot = realRoot;
            this.files = files;
            this.skipped = skipped;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (dir.equals(root)) {
                return FileVisitResult.CONTINUE;
            }
            if (hidden(dir)) {
                return FileVisitResult.SKIP_SUBTREE;
            }
            if (!nameRoundTrips(dir)) {
                skipped.put(relative(dir) + "/", NOT_UTF8 + " (the folder and everything in it)");
                return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (hidden(file)) {
                return FileVisitResult.CONTINUE;
            }
            if (!nameRoundTrips(file)) {
                skipped.put(relative(file), NOT_UTF8);
            } else if (PolicyFileNames.nearMiss(file.getFileName().toString())) {
                skipped.put(relative(file), NEAR_MISS);
            } else if (attrs.isSymbolicLink()) {
                skipped.put(relative(file), linkReason(file));
            } else if (attrs.isRegularFile()) {
                files.add(relative(file));
            } else {
                skipped.put(relative(file), "not a regular file (a FIFO, socket or device)");
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
            if (!hidden(file)) {
                skipped.put(relative(file), "not readable: " + e.getClass().getSimpleName());
            }
            return FileVisitResult.CONTINUE;
        }

        private String linkReason(Path link) {
            try {
                return link.toRealPath().startsWith(realRoot)
                        ? "symbolic link (its target is listed under its own path)"
                        : "symbolic link to outside the vault";
            } catch (IOException e) {
                return "broken symbolic link";
            }
        }

        /** The vault-relative text of {@code p} names {@code p} again (false for bytes that are not UTF-8). */
        private boolean nameRoundTrips(Path p) {
            try {
                return root.resolve(relative(p)).equals(p);
            } catch (java.nio.file.InvalidPathException e) {
                return false;
            }
        }

        private static boolean hidden(Path p) {
            return p.getFileName() != null && p.getFileName().toString().startsWith(".");
        }

        private String relative(Path p) {
            return root.relativize(p).toString().replace('\\', '/');
        }
    }
}
