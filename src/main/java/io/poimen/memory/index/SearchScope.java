package io.poimen.memory.index;

import java.util.List;
import java.util.Set;

/**
 * Where a branch may look: the vault paths in the caller's wiki-graph scope, plus optional tag filters.
 * {@code paths == null} means the whole vault (used by benchmarks and admin tools only).
 */
public record SearchScope(Set<String> paths, List<String> tags) {
    public static SearchScope all() {
        return new SearchScope(null, List.of());
    }

    public static SearchScope of(Set<String> paths) {
        return new SearchScope(paths, List.of());
    }

    public boolean contains(String path) {
        return paths == null || paths.contains(path);
    }
}
