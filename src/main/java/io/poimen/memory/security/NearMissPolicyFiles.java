package io.poimen.memory.security;

import io.poimen.memory.vault.PolicyFileNames;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Near-misses of the policy file name ({@link PolicyFileNames}) in the folders where a policy is looked up. A folder
 * is listed again only when its modification time changed (one stat per lookup otherwise), so a folder of thousands
 * of notes is not listed on every decision.
 */
final class NearMissPolicyFiles {
    private record Scan(FileTime modified, Path found) {
    }

    private final Map<Path, Scan> scans = new ConcurrentHashMap<>();
    private final Consumer<Path> gone;

    /** @param gone told of a near-miss found before that is no longer there */
    NearMissPolicyFiles(Consumer<Path> gone) {
        this.gone = gone;
    }

    /** The near-miss in {@code dir} (the first by name), or null; null too when {@code dir} is not a folder. */
    Path in(Path dir) {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(dir, BasicFileAttributes.class);
        } catch (IOException e) {
            return forget(dir);
        }
        if (!attrs.isDirectory()) {
            return forget(dir);
        }
        Scan known = scans.get(dir);
        if (known != null && known.modified().equals(attrs.lastModifiedTime())) {
            return known.found();
        }
        Path found = null;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                String name = e.getFileName().toString();
                if (PolicyFileNames.nearMiss(name) && (found == null
                        || name.compareTo(found.getFileName().toString()) < 0)) {
                    found = e;
                }
            }
        } catch (IOException e) {
            return forget(dir);
        }
        scans.put(dir, new Scan(attrs.lastModifiedTime(), found));
        if (known != null && known.found() != null && !known.found().equals(found)) {
            gone.accept(known.found());
        }
        return found;
    }

    private Path forget(Path dir) {
        Scan known = scans.remove(dir);
        if (known != null && known.found() != null) {
            gone.accept(known.found());
        }
        return null;
    }
}
