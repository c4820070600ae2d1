package io.poimen.memory.index.tfidf;

import io.poimen.memory.vault.Chunk;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The term → postings map and the statistics behind it. Not thread-safe: {@link TfIdfIndex} guards it.
 *
 * <p>IDF uses the natural log: {@code idf(t) = ln(N / df(t))}, 0 when {@code df = 0}. Project IDF counts the
 * project's chunks and the shared chunks: {@code N_p = |chunks of p| + |shared chunks|}, {@code df_p(t)} likewise;
 * a term no such chunk holds, a null project and a project without chunks fall back to the global IDF.
 */
final class InvertedIndex {
    private final Map<String, TermEntry> terms = new HashMap<>();
    private final ChunkTable table = new ChunkTable();
    private final Buckets buckets = new Buckets();

    void insert(Chunk chunk, ChunkTerms analyzed) {
        int existing = table.slotOf(chunk.id());
        if (existing >= 0) {
            delete(existing);
        }
        int bucket = buckets.bucketOf(chunk);
        int slot = table.put(chunk.id(), chunk.path(), bucket, analyzed);
        buckets.count(bucket, 1);
        for (int i = 0; i < analyzed.terms().length; i++) {
            TermEntry e = terms.computeIfAbsent(analyzed.terms()[i], t -> new TermEntry());
            e.text.add(slot, analyzed.weights()[i]);
            e.count(bucket, 1);
        }
        for (String m : analyzed.metaTerms()) {
            terms.computeIfAbsent(m, t -> new TermEntry()).meta.add(slot, 1f);
        }
    }

    void deletePath(String path) {
        table.slotsOf(path).forEach(this::delete);
    }

    private void delete(int slot) {
        ChunkTerms analyzed = table.terms(slot);
        int bucket = table.bucket(slot);
        for (String t : analyzed.terms()) {
            TermEntry e = terms.get(t);
            e.text.remove(slot);
            e.count(bucket, -1);
            dropIfEmpty(t, e);
        }
        for (String m : analyzed.metaTerms()) {
            TermEntry e = terms.get(m);
            e.meta.remove(slot);
            dropIfEmpty(m, e);
        }
        buckets.count(bucket, -1);
        table.free(slot);
    }

    private void dropIfEmpty(String term, TermEntry e) {
        if (e.isEmpty()) {
            terms.remove(term);
        }
    }

    TermEntry entry(String term) {
        return terms.get(term);
    }

    ChunkTable table() {
        return table;
    }

    /** Bucket id of {@code project} for {@link #idf(TermEntry, int)}; -1 means "global statistics". */
    int bucketOf(String project) {
        return project == null ? -1 : buckets.find(project);
    }

    double idf(TermEntry e, int projectBucket) {
        if (e == null) {
            return 0;
        }
        if (buckets.size(projectBucket) > 0) {
            int df = e.df(projectBucket) + e.df(Buckets.SHARED);
            if (df > 0) {
                return idf(buckets.size(projectBucket) + buckets.size(Buckets.SHARED), df);
            }
        }
        return idf(table.size(), e.df());
    }

    /**
     * {@link #idf(TermEntry, int)} as if the chunks in {@code hidden} (slots the caller may not read) were not
     * stored: the project IDF counts only readable project and shared chunks, so it is the same whether such
     * chunks exist or not. {@code hiddenInBuckets} is how many of them are project or shared chunks.
     */
    double idf(TermEntry e, int projectBucket, Set<Integer> hidden, int hiddenInBuckets) {
        if (hidden.isEmpty()) {
            return idf(e, projectBucket);
        }
        if (e == null) {
            return 0;
        }
        int n = buckets.size(projectBucket) + buckets.size(Buckets.SHARED) - hiddenInBuckets;
        if (buckets.size(projectBucket) > 0 && n > 0) {
            int df = e.df(projectBucket) + e.df(Buckets.SHARED);
            for (int i = 0, size = e.text.size(); i < size; i++) {
                int slot = e.text.slot(i);
                if (hidden.contains(slot) && inBuckets(slot, projectBucket)) {
                    df--;
                }
            }
            if (df > 0) {
                return idf(n, df);
            }
        }
        return idf(e, projectBucket);
    }

    boolean inBuckets(int slot, int projectBucket) {
        int b = table.bucket(slot);
        return b == Buckets.SHARED || b == projectBucket;
    }

    static double idf(int n, int df) {
        return df <= 0 || n <= 0 ? 0 : Math.log((double) n / df);
    }
}
