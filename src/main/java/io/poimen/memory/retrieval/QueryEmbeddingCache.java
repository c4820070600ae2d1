package io.poimen.memory.retrieval;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.time.Duration;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.Header;

/**
 * Query vectors of the last hour (design notes), so a repeated question skips the embedding model, by far the
 * slowest step of the semantic branch. Bounded by entry count and age; keyed by the model and the text with
 * its white space collapsed (the models' tokenizers split on white space, so the vector is the same).
 *
 * <p>Meters: {@code cache.gets{cache="query-embeddings",result=hit|miss}}, {@code cache.size},
 * {@code cache.evictions} (micrometer's Caffeine binder) and {@code poimen.query.embedding.cache.hit.ratio}.
 */
public class QueryEmbeddingCache {
    public static final String NAME = "query-embeddings";

    private final String model;
    private final Cache<String, float[]> vectors;

    /** @param maxEntries 0 disables the cache (every lookup misses, nothing is kept) */
    public QueryEmbeddingCache(String model, long maxEntries, Duration ttl, MeterRegistry registry) {
        this(model, maxEntries, ttl, registry, Ticker.systemTicker());
    }

    QueryEmbeddingCache(String model, long maxEntries, Duration ttl, MeterRegistry registry, Ticker ticker) {
        if (maxEntries < 0 || ttl.isNegative()) {
            throw new IllegalArgumentException("query embedding cache needs max-size >= 0 and ttl >= 0, got "
                    + maxEntries + " and " + ttl);
        }
        this.model = model;
        this.vectors = Caffeine.newBuilder().maximumSize(maxEntries).expireAfterWrite(ttl).ticker(ticker)
                .executor(Runnable::run).recordStats().build();
        CaffeineCacheMetrics.monitor(registry, vectors, NAME);
        Gauge.builder("poimen.query.embedding.cache.hit.ratio", vectors, c -> c.stats().hitRate())
                .description("Share of query embeddings served from the cache since start")
                .register(registry);
    }

    /** Route step before the embedding endpoint: on a hit, the vector header is set and the model is skipped. */
    public void lookup(@Body String text, Exchange exchange) {
        float[] v = vectors.getIfPresent(key(text));
        if (v != null) {
            exchange.getMessage().setHeader(BranchSearches.VECTOR_HEADER, v.clone());
        }
    }

    /** Route step after the embedding endpoint: keeps the vector it answered. */
    public void remember(@Body String text, @Header(BranchSearches.VECTOR_HEADER) float[] vector) {
        if (text != null && vector != null) {
            vectors.put(key(text), vector.clone());
        }
    }

    public double hitRate() {
        return vectors.stats().hitRate();
    }

    public long hits() {
        return vectors.stats().hitCount();
    }

    public long misses() {
        return vectors.stats().missCount();
    }

    /** Entries kept now (after pending evictions). */
    public long size() {
        vectors.cleanUp();
        return vectors.estimatedSize();
    }

    /** Drops every entry (benchmarks measure the cold route with it). */
    public void clear() {
        vectors.invalidateAll();
    }

    String key(String text) {
        return model + '\n' + (text == null ? "" : text.strip().replaceAll("\\s+", " "));
    }
}
