package io.poimen.memory.security.policy;

import io.poimen.memory.vault.PolicyFileNames;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Near-misses of the policy file name ({@link PolicyFileNames}) in the folders where a policy is looked up. A folder
 * is listed again only when its modification time changed (one stat per lookup otherwise), so a folder of thousands
 * of notes is not listed on every decision.
 */
final class NearMissPolicyFiles {
    private record Scan(FileTime modified, List<Path> found) {
    }

    private final Map<Path, Scan> scans = new ConcurrentHashMap<>();
    private final Consumer<Path> gone;

    /** @param gone told of a near-miss found before that is no longer there */
    NearMissPolicyFiles(Consumer<Path> gone) {
        this.gone = gone;
    }

    /** The near-misses in {@code dir} by name, none when {@code dir} is not a folder. */
    List<Path> in(Path dir) {
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
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir,
                e -> PolicyFileNames.nearMiss(e.getFileName().toString()))) {
            entries.forEach(found::add);
        } catch (IOException e) {
            return forget(dir);
        }
        found.sort(null);
        List<Path> now = List.copyOf(found);
        scans.put(dir, new Scan(attrs.lastModifiedTime(), now));
        if (known != null) {
            known.found().stream().filter(p -> !now.contains(p)).forEach(gone);
        }
        return now;
    }

    private List<Path> forget(Path dir) {
        Scan known = scans.remove(dir);
        if (known != null) {
            known.found().forEach(gone);
        }
        return List.of();
    }
}
