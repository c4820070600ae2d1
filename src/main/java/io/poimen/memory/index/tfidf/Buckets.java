package io.poimen.memory.index.tfidf;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.VaultPaths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Groups chunks for the project statistics: one bucket per project, one for {@code shared/}, and one for the rest
 * (top-level notes, counted in the global statistics only).
 */
final class Buckets {
    static final int OTHER = 0;
    static final int SHARED = 1;

    private final Map<String, Integer> ids = new HashMap<>();
    private int[] sizes = new int[2];

    int bucketOf(Chunk chunk) {
        String project = chunk.project() != null ? chunk.project() : VaultPaths.projectOf(chunk.path());
        if (project != null) {
            return ids.computeIfAbsent(project, p -> ids.size() + 2);
        }
        return VaultPaths.isShared(chunk.path()) ? SHARED : OTHER;
    }

    /** Bucket id of {@code project}, or -1 when no chunk of it was ever added. */
    int find(String project) {
        return ids.getOrDefault(project, -1);
    }

    void count(int bucket, int delta) {
        if (bucket >= sizes.length) {
            sizes = Arrays.copyOf(sizes, bucket + 1);
        }
        sizes[bucket] += delta;
    }

    int size(int bucket) {
        return bucket >= 0 && bucket < sizes.length ? sizes[bucket] : 0;
    }
}
