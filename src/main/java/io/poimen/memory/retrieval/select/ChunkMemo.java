package io.poimen.memory.retrieval.select;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Values a query derives from a chunk's text alone (its shingles, its tokens in the prompt), kept across queries
 * so that a chunk many queries select is worked on once. Keyed by chunk id; an entry counts only for the same
 * text and the same {@code variant} (the other input, e.g. the shingle width or the note path), so a re-ingested
 * chunk or another setting is derived anew: a value served from here is always the one the supplier would give.
 * Bounded by an estimate of the bytes held (the text kept for the check plus the value).
 */
public final class ChunkMemo<V> {
    private record Entry<V>(Object variant, String text, V value) {
    }

    private final Cache<String, Entry<V>> entries;

    /**
     * @param maxBytes   what the entries may hold, about; 0 keeps nothing
     * @param valueBytes estimate of a value's size in bytes
     */
    public ChunkMemo(long maxBytes, ToIntFunction<V> valueBytes) {
        this.entries = Caffeine.newBuilder().maximumWeight(maxBytes)
                .weigher((String id, Entry<V> e) -> 64 + 2 * (id.length() + e.text().length())
                        + valueBytes.applyAsInt(e.value()))
                .executor(Runnable::run).build();
    }

    /** The value for this chunk text and variant, derived by {@code derive} unless kept from an earlier call. */
    public V get(String chunkId, Object variant, String text, Supplier<V> derive) {
        String t = text == null ? "" : text;
        Entry<V> e = entries.getIfPresent(chunkId);
        if (e != null && e.text().equals(t) && Objects.equals(e.variant(), variant)) {
            return e.value();
        }
        V value = derive.get();
        entries.put(chunkId, new Entry<>(variant, t, value));
        return value;
    }

    /** Entries kept now. */
    long size() {
        entries.cleanUp();
        return entries.estimatedSize();
    }
}
