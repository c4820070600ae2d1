package io.poimen.memory.index.tfidf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Chunk slots: the int ids used in postings, with their chunk id, path, bucket and analyzed terms. */
final class ChunkTable {
    private String[] ids = new String[16];
    private String[] paths = new String[16];
    private int[] buckets = new int[16];
    private ChunkTerms[] terms = new ChunkTerms[16];
    private int highWater;
    private final Deque<Integer> free = new ArrayDeque<>();
    private final Map<String, Integer> byId = new HashMap<>();
    private final Map<String, List<Integer>> byPath = new HashMap<>();

    int put(String id, String path, int bucket, ChunkTerms chunkTerms) {
        int slot = free.isEmpty() ? highWater++ : free.pop();
        if (slot >= ids.length) {
            int n = ids.length * 2;
            ids = Arrays.copyOf(ids, n);
            paths = Arrays.copyOf(paths, n);
            buckets = Arrays.copyOf(buckets, n);
            terms = Arrays.copyOf(terms, n);
        }
        ids[slot] = id;
        paths[slot] = path;
        buckets[slot] = bucket;
        terms[slot] = chunkTerms;
        byId.put(id, slot);
        byPath.computeIfAbsent(path, p -> new ArrayList<>()).add(slot);
        return slot;
    }

    void free(int slot) {
        byId.remove(ids[slot]);
        List<Integer> same = byPath.get(paths[slot]);
        same.remove(Integer.valueOf(slot));
        if (same.isEmpty()) {
            byPath.remove(paths[slot]);
        }
        ids[slot] = null;
        paths[slot] = null;
        terms[slot] = null;
        free.push(slot);
    }

    /** Slot of chunk {@code id}, or -1. */
    int slotOf(String id) {
        return byId.getOrDefault(id, -1);
    }

    /** Every stored path with its slots (live view; call under the index lock). */
    Map<String, List<Integer>> byPath() {
        return java.util.Collections.unmodifiableMap(byPath);
    }

    List<Integer> slotsOf(String path) {
        return List.copyOf(byPath.getOrDefault(path, List.of()));
    }

    String id(int slot) {
        return ids[slot];
    }

    String path(int slot) {
        return paths[slot];
    }

    int bucket(int slot) {
        return buckets[slot];
    }

    ChunkTerms terms(int slot) {
        return terms[slot];
    }

    /** One past the highest slot ever used: the size of per-query accumulators. */
    int highWater() {
        return highWater;
    }

    int size() {
        return byId.size();
    }
}
