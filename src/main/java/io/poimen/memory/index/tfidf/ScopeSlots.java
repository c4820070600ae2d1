package io.poimen.memory.index.tfidf;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Search scopes as bit sets over the chunk slots, so the scorer tests a bit instead of hashing a path for every
 * candidate. The scope sets come from the wiki graph, which hands out the same set object for a project until
 * the vault changes, so they are keyed by identity; a set is turned into bits the second time it is seen (a set
 * made for one query only is not worth it). Cleared by every write, under the index's write lock.
 */
final class ScopeSlots {
    static final int MAX_SETS = 32;

    private record Identity(Set<String> set) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity other && other.set == set;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(set);
        }
    }

    private final Map<Identity, BitSet> bits = new ConcurrentHashMap<>();
    private final Map<Identity, Boolean> seenOnce = new ConcurrentHashMap<>();

    /** The slots of {@code paths} in {@code table}, or null until the same set comes again. */
    BitSet of(Set<String> paths, ChunkTable table) {
        Identity key = new Identity(paths);
        BitSet b = bits.get(key);
        if (b != null) {
            return b;
        }
        if (seenOnce.putIfAbsent(key, Boolean.TRUE) == null) {
            if (seenOnce.size() > MAX_SETS) {
                seenOnce.clear();
            }
            return null;
        }
        b = build(paths, table);
        if (bits.size() >= MAX_SETS) {
            bits.clear();
        }
        bits.put(key, b);
        return b;
    }

    private static BitSet build(Set<String> paths, ChunkTable table) {
        BitSet b = new BitSet(table.highWater());
        Map<String, List<Integer>> byPath = table.byPath();
        if (paths.size() < byPath.size()) {
            for (String p : paths) {
                byPath.getOrDefault(p, List.of()).forEach(b::set);
            }
        } else {
            byPath.forEach((p, slots) -> {
                if (paths.contains(p)) {
                    slots.forEach(b::set);
                }
            });
        }
        return b;
    }

    void clear() {
        bits.clear();
        seenOnce.clear();
    }
}
