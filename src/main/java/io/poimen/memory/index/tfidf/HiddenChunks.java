package io.poimen.memory.index.tfidf;

import com.github.benmanes.caffeine.cache.Cache;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.poimen.memory.index.BoundedCaches;
import io.poimen.memory.vault.VaultPaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The project and shared chunks a restricted caller may not read (left out of the project IDF), per index state:
 * the index's paths grouped by folder are built once per write, and the hidden slots once per (project bucket,
 * access groups denied), in a bounded cache. The caller's predicate is still asked on every query, once per folder
 * (read access is decided per folder), so a policy change gives another key on the next query. Cleared by every
 * write (under the write lock; readers use it under the read lock).
 */
final class HiddenChunks {
    static final String NAME = "tfidf-hidden-chunks";
    static final int MAX_ENTRIES = 256;
    /** Bound on the slots all cached sets hold together. */
    static final long MAX_SLOTS = 1_000_000;

    /** Slots the caller may not read and how many of them are project or shared chunks. */
    record Hidden(Set<Integer> slots, int inBuckets) {
        static final Hidden NONE = new Hidden(Set.of(), 0);
    }

    private record Key(int bucket, Set<String> deniedGroups) {
    }

    private final Map<Integer, Map<String, List<String>>> foldersByBucket = new ConcurrentHashMap<>();
    private final Cache<Key, Hidden> hidden = BoundedCaches.of(MAX_ENTRIES, MAX_SLOTS, h -> h.slots().size());

    Hidden of(InvertedIndex index, int bucket, Predicate<String> readable) {
        Map<String, List<String>> folders = foldersByBucket.computeIfAbsent(bucket, b -> folders(index, b));
        Set<String> denied = new TreeSet<>();
        folders.forEach((folder, paths) -> {
            if (!readable.test(paths.get(0))) {
                denied.add(folder);
            }
        });
        if (denied.isEmpty()) {
            return Hidden.NONE;
        }
        return hidden.get(new Key(bucket, Set.copyOf(denied)), k -> build(index, folders, k.deniedGroups()));
    }

    private static Hidden build(InvertedIndex index, Map<String, List<String>> folders, Set<String> denied) {
        Set<Integer> slots = new HashSet<>();
        for (String folder : denied) {
            for (String path : folders.get(folder)) {
                slots.addAll(index.table().byPath().get(path));
            }
        }
        return new Hidden(Set.copyOf(slots), slots.size());
    }

    /** The paths of the project and shared chunks, by folder. */
    private static Map<String, List<String>> folders(InvertedIndex index, int bucket) {
        Map<String, List<String>> out = new HashMap<>();
        for (Map.Entry<String, List<Integer>> e : index.table().byPath().entrySet()) {
            // only project and shared chunks count in the project IDF; other projects' notes need no decision
            if (!e.getValue().isEmpty() && index.inBuckets(e.getValue().get(0), bucket)) {
                out.computeIfAbsent(VaultPaths.accessGroupOf(e.getKey()), f -> new ArrayList<>()).add(e.getKey());
            }
        }
        return out;
    }

    void clear() {
        foldersByBucket.clear();
        hidden.invalidateAll();
    }

    /** Hidden sets served from the cache and built since start, the sets kept now and the slots they hold. */
    long[] stats() {
        long slots = BoundedCaches.weight(hidden);
        var s = hidden.stats();
        return new long[] {s.hitCount(), s.missCount(), hidden.estimatedSize(), slots};
    }

    /** {@code cache.gets{cache="tfidf-hidden-chunks",result=hit|miss}} and the other Caffeine meters. */
    void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, hidden, NAME);
        Gauge.builder("poimen.tfidf.hidden.chunks.cache.hit.ratio", hidden, c -> c.stats().hitRate())
                .description("Share of restricted callers' hidden TF-IDF chunk sets served from the cache since start")
                .register(registry);
    }
}
