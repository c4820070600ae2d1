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
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * Lists a vault's files. Skips hidden entries (which covers {@code .git}, {@code .obsidian} and {@code .trash})
 * and every symbolic link. A link that points outside the vault would leak files; one that points inside
 * would list the same note twice under two paths, possibly under another project's access policy, while its
 * target is listed anyway under its own path. Skipped links are reported in {@link VaultSnapshot#skipped()}.
 */
@Component
public class VaultScanner {
    public static final String ACCESS_FILE = "_access.yaml";

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
        List<String> markdown = files.stream().filter(f -> f.toLowerCase(Locale.ROOT).endsWith(".md")).toList();
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
            return dir.equals(root) || !hidden(dir) ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (hidden(file)) {
                return FileVisitResult.CONTINUE;
            }
            if (attrs.isSymbolicLink()) {
                skipped.put(relative(file), linkReason(file));
            } else if (attrs.isRegularFile()) {
                files.add(relative(file));
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

        private static boolean hidden(Path p) {
            return p.getFileName() != null && p.getFileName().toString().startsWith(".");
        }

        private String relative(Path p) {
            return root.relativize(p).toString().replace('\\', '/');
        }
    }
}
