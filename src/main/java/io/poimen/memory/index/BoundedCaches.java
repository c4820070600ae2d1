package io.poimen.memory.index;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.function.ToLongFunction;

/** Caffeine caches bounded both by their entry count and by the elements their values hold together. */
public final class BoundedCaches {
    private BoundedCaches() {
    }

    /**
     * A cache of at most {@code maxEntries} entries whose values hold at most {@code maxElements} elements
     * together (hit and miss counts recorded). Caffeine bounds by one weight,
     * so an entry weighs its element count but never less than {@code maxElements / maxEntries} (rounded down: with
     * {@code maxElements > maxEntries²} exactly {@code maxEntries} small entries fit). Which entry goes is Caffeine's
     * choice (W-TinyLFU: a new entry may be refused in favour of often used ones), not strictly the least recently
     * used. Evictions run on the calling thread, so the bounds hold when a call returns.
     */
    public static <K, V> Cache<K, V> of(int maxEntries, long maxElements, ToLongFunction<V> elements) {
        long floor = maxElements / maxEntries;
        return Caffeine.newBuilder().maximumWeight(maxElements)
                .weigher((K k, V v) -> (int) Math.min(Integer.MAX_VALUE, Math.max(floor, elements.applyAsLong(v))))
                .executor(Runnable::run).recordStats().build();
    }

    /** The elements a cache of {@link #of} holds now, as weighed (after pending evictions). */
    public static long weight(Cache<?, ?> cache) {
        cache.cleanUp();
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }
}
