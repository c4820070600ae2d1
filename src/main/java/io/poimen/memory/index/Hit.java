package io.poimen.memory.index;

import java.util.Comparator;

/** A candidate from one retrieval branch: a chunk id and the branch's raw score (higher is better). */
public record Hit(String chunkId, double score) {
    /** The order of every ranked list: score descending, ties by chunk id ascending. */
    public static final Comparator<Hit> BEST_FIRST = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(Hit::chunkId);
}
