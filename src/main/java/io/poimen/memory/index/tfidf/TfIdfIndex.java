package io.poimen.memory.index.tfidf;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.index.Hit;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.Terms;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * In-process, incrementally updated TF-IDF over chunks with global, project and chunk-metadata scopes.
 * Searches run concurrently; writes take an exclusive lock (text analysis happens before it).
 *
 * <p>Score of chunk {@code c} for query terms {@code q} in project {@code p} (cosine TF-IDF, as Lucene's
 * ClassicSimilarity): <pre>
 *   score(c) = Σ_{t∈q} (1 + ln qtf_t) · (1 + ln tf_{t,c}) · idf_p(t)² / norm(c)  +  Σ_{t∈q ∩ meta(c)} idf_p(t) · w_meta
 *   norm(c)  = sqrt(Σ_{t∈c} (1 + ln tf_{t,c})²)
 * </pre>
 * where {@code meta(c)} are the analyzed key terms and heading terms of {@code c}, {@code w_meta} the metadata
 * weight (default 3.0) and {@code idf_p} the project IDF described in {@link InvertedIndex}
 * ({@code idf = ln(N/df)}, natural log). Only chunks in the postings of a query term are scored.
 */
@Component
public class TfIdfIndex implements MeterBinder {
    public static final double DEFAULT_METADATA_WEIGHT = 3.0;
    private static final int PARALLEL_ANALYSIS = 256;

    private final double metadataWeight;
    private final InvertedIndex index = new InvertedIndex();
    private final HiddenChunks hidden = new HiddenChunks();
    private final ScopeSlots scopes = new ScopeSlots();
    /** Path → when the note last changed (epoch ms), for the recency factor; only notes whose time is known. */
    private final Map<String, Long> noteTimes = new HashMap<>();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();

    @Autowired
    public TfIdfIndex(PoimenProperties properties) {
        this(properties.retrieval().tfidf().metadataWeight());
    }

    public TfIdfIndex(double metadataWeight) {
        if (!(metadataWeight >= 0) || Double.isInfinite(metadataWeight)) {
            throw new IllegalArgumentException("metadata weight must be a finite number >= 0, was " + metadataWeight);
        }
        this.metadataWeight = metadataWeight;
    }

    /** Adds {@code chunk}, replacing a chunk with the same id. */
    public void add(Chunk chunk) {
        addAll(List.of(chunk));
    }

    /** Adds every chunk (replacing chunks with the same ids) in one write. */
    public void addAll(Collection<Chunk> chunks) {
        addAll(chunks, Map.of());
    }

    /** {@link #addAll(Collection)}, with when each chunk's note last changed (by path; a missing one: unknown). */
    public void addAll(Collection<Chunk> chunks, Map<String, Instant> changedAt) {
        List<Map.Entry<Chunk, ChunkTerms>> analyzed = analyze(chunks);
        write(() -> analyzed.forEach(a -> {
            index.insert(a.getKey(), a.getValue());
            noteTime(a.getKey().path(), changedAt.get(a.getKey().path()));
        }));
    }

    /** Removes every chunk of note {@code path}. */
    public void removePath(String path) {
        Objects.requireNonNull(path, "path");
        write(() -> {
            index.deletePath(path);
            noteTimes.remove(path);
        });
    }

    /** Replaces all chunks of note {@code path} by {@code chunks} atomically: readers see the old or the new note. */
    public void replacePath(String path, Collection<Chunk> chunks) {
        replacePath(path, chunks, null);
    }

    /** {@link #replacePath(String, Collection)}, with when the note last changed (null: unknown). */
    public void replacePath(String path, Collection<Chunk> chunks, Instant changedAt) {
        Objects.requireNonNull(path, "path");
        chunks.forEach(c -> {
            if (!path.equals(c.path())) {
                throw new IllegalArgumentException("chunk " + c.id() + " belongs to " + c.path() + ", not " + path);
            }
        });
        List<Map.Entry<Chunk, ChunkTerms>> analyzed = analyze(chunks);
        write(() -> {
            index.deletePath(path);
            analyzed.forEach(a -> index.insert(a.getKey(), a.getValue()));
            noteTime(path, chunks.isEmpty() ? null : changedAt);
        });
    }

    private void noteTime(String path, Instant changedAt) {
        if (changedAt == null) {
            noteTimes.remove(path);
        } else {
            noteTimes.put(path, changedAt.toEpochMilli());
        }
    }

    public int size() {
        return read(() -> index.table().size());
    }

    /** Global IDF of an analyzed term ({@link Terms#analyze}): {@code ln(N / df)}, 0 for unknown terms. */
    public double idf(String term) {
        return idf(term, null);
    }

    /** IDF of an analyzed term in {@code project}'s statistics (project + shared chunks, global fallback). */
    public double idf(String term, String project) {
        return read(() -> index.idf(index.entry(term), index.bucketOf(project)));
    }

    /** Number of chunks whose text holds the analyzed term. */
    public int documentFrequency(String term) {
        return read(() -> {
            TermEntry e = index.entry(term);
            return e == null ? 0 : e.df();
        });
    }

    /** {@link #search(List, String, Set, int)} on {@code Terms.analyze(query)}. */
    public List<Hit> search(String query, String project, Set<String> scopePaths, int k) {
        return search(Terms.analyze(query), project, scopePaths, k);
    }

    /**
     * Top {@code k} chunks holding at least one of the analyzed {@code queryTerms} (in text or metadata), score
     * descending, ties by chunk id. {@code project} selects the IDF statistics (null = global); {@code scopePaths}
     * restricts results to those note paths (null = all).
     */
    public List<Hit> search(List<String> queryTerms, String project, Set<String> scopePaths, int k) {
        return search(queryTerms, project, scopePaths, null, k);
    }

    /**
     * {@link #search(List, String, Set, int)} for a caller who may read only the notes {@code readable} accepts
     * (null = all): the IDF statistics leave the others out, so no score depends on notes the caller may not read.
     */
    public List<Hit> search(List<String> queryTerms, String project, Set<String> scopePaths,
                            java.util.function.Predicate<String> readable, int k) {
        if (k < 0) {
            throw new IllegalArgumentException("k must be >= 0, was " + k);
        }
        Map<String, Integer> qtf = new LinkedHashMap<>();
        queryTerms.stream().filter(t -> t != null && !t.isBlank()).forEach(t -> qtf.merge(t, 1, Integer::sum));
        if (k == 0 || qtf.isEmpty()) {
            return List.of();
        }
        return read(() -> QueryScorer.search(index, hidden, scopes, metadataWeight, qtf, project, scopePaths,
                readable, k));
    }

    /**
     * For the adaptive fusion's coverage keep: chunk id → the share of the analyzed {@code queryTerms} the chunk
     * holds (in its text or metadata), each term weighted by its project IDF as the TF-IDF branch computes it for
     * this caller ({@code readable} as in {@link #search(List, String, Set, java.util.function.Predicate, int)}):
     * <pre>  share(c) = Σ_{t∈q ∩ c} idf_p(t) / Σ_{t∈q} idf_p(t)</pre>
     * 0 for a chunk not in the index, and for every chunk when no query term is known. The IDFs are read on the
     * first call (a query whose semantic list the gate did not cut reads none), each chunk's terms on each call;
     * the function belongs to one query on one thread.
     */
    public ToDoubleFunction<String> termShares(List<String> queryTerms, String project,
                                               java.util.function.Predicate<String> readable) {
        return new TermShares(queryTerms, project, readable);
    }

    /** {@link #termShares}: the query's IDFs on the first call, then each chunk's terms against them. */
    private final class TermShares implements ToDoubleFunction<String> {
        private final List<String> queryTerms;
        private final String project;
        private final java.util.function.Predicate<String> readable;
        private Map<String, Double> idf;
        private double total;

        TermShares(List<String> queryTerms, String project, java.util.function.Predicate<String> readable) {
            this.queryTerms = queryTerms;
            this.project = project;
            this.readable = readable;
        }

        @Override
        public double applyAsDouble(String chunkId) {
            return read(() -> {
                if (idf == null) {
                    readIdf();
                }
                int slot = index.table().slotOf(chunkId);
                if (slot < 0 || total <= 0) {
                    return 0.0;
                }
                double held = 0;
                for (String t : index.table().terms(slot).terms()) {
                    held += idf.getOrDefault(t, 0.0);
                }
                return held / total;
            });
        }

        private void readIdf() {
            int bucket = index.bucketOf(project);
            HiddenChunks.Hidden h = readable == null ? HiddenChunks.Hidden.NONE : hidden.of(index, bucket, readable);
            idf = new HashMap<>();
            queryTerms.stream().filter(t -> t != null && !t.isBlank()).distinct()
                    .forEach(t -> idf.put(t, index.idf(index.entry(t), bucket, h.slots(), h.inBuckets())));
            total = idf.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /** Restricted callers' hidden-chunk sets served from the cache and built since start, kept now, their slots. */
    public long[] hiddenCacheStats() {
        return hidden.stats();
    }

    /** The hidden-chunk cache's meters (Spring binds every MeterBinder bean to the registry). */
    @Override
    public void bindTo(MeterRegistry registry) {
        hidden.bindTo(registry);
    }

    /** A chunk's key terms, category and note time as indexed, or null when the chunk is not in the index. */
    public ChunkMetadataView metadata(String chunkId) {
        return read(() -> {
            int slot = index.table().slotOf(chunkId);
            ChunkTerms t = slot < 0 ? null : index.table().terms(slot);
            if (t == null) {
                return null;
            }
            String path = index.table().path(slot);
            return new ChunkMetadataView(path, t.keyTerms(), t.category(), noteTimes.getOrDefault(path, -1L));
        });
    }

    /**
     * What the TF-IDF branch's boosts read of a chunk.
     *
     * @param noteTimeMillis when the chunk's note last changed (epoch ms; git commit time or file time, see
     *                       {@code NoteTimes}), -1 when not known
     */
    public record ChunkMetadataView(String path, List<String> keyTerms, String category, long noteTimeMillis) {
    }

    private static List<Map.Entry<Chunk, ChunkTerms>> analyze(Collection<Chunk> chunks) {
        for (Chunk c : chunks) {
            if (c == null || c.id() == null || c.path() == null) {
                throw new IllegalArgumentException("chunk needs an id and a path: " + c);
            }
        }
        Stream<Chunk> stream = chunks.size() >= PARALLEL_ANALYSIS ? chunks.parallelStream() : chunks.stream();
        return stream.map(c -> Map.entry(c, ChunkTerms.of(c))).toList();
    }

    private void write(Runnable change) {
        lock.writeLock().lock();
        try {
            hidden.clear();
            scopes.clear();
            change.run();
        } finally {
            lock.writeLock().unlock();
        }
    }

    private <T> T read(Supplier<T> query) {
        lock.readLock().lock();
        try {
            return query.get();
        } finally {
            lock.readLock().unlock();
        }
    }
}
