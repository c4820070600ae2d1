package io.poimen.memory.index.ingest;

import java.nio.file.Path;
import java.util.List;

/**
 * What a git pull changed in the vault, for an ingest of those paths only (the body of {@code direct:ingest}
 * after a sync; a plain {@link Path} body still means a whole-vault scan).
 *
 * @param root     the vault working copy
 * @param from     the commit the index was built from
 * @param to       the commit pulled
 * @param upserted files added or modified, and the new path of a rename
 * @param deleted  files removed, and the old path of a rename
 */
public record VaultChanges(Path root, String from, String to, List<String> upserted, List<String> deleted) {
    public VaultChanges {
        upserted = List.copyOf(upserted);
        deleted = List.copyOf(deleted);
    }
}
