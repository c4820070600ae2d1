package io.poimen.memory.index.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import io.poimen.memory.index.Hit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleUnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LRUQueryCache;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * One Lucene index on a {@link Directory}: a single {@link IndexWriter} and a {@link SearcherManager}.
 * Every write batch is committed (so a restart keeps it) and then made visible to searchers before
 * {@link #write} returns. Closing the store closes the writer, the searchers and the directory.
 */
public final class LuceneStore implements AutoCloseable {

    /** A batch of changes applied to the writer. */
    @FunctionalInterface
    public interface WriteBatch {
        void apply(IndexWriter writer) throws IOException;
    }

    /** A read against a point-in-time searcher. */
    @FunctionalInterface
    public interface Read<T> {
        T apply(IndexSearcher searcher) throws IOException;
    }

    private final String name;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    /**
     * Filters (the scope's path set, tags) are the same from query to query, so their per-segment doc sets are
     * kept: without this, every query looked each of the scope's thousands of paths up in the terms dictionary.
     * Lucene's default cache skips segments under 10,000 docs, which is every segment of a vault.
     */
    private final java.util.LinkedList<ScopeFilter> scopeFilters = new java.util.LinkedList<>();
    private final LRUQueryCache filters = new LRUQueryCache(256, 64L << 20, leaf -> true, Float.POSITIVE_INFINITY);
    /**
     * Per segment, the stored id of every doc a search has returned so far. A hit's id used to be read from the
     * compressed stored fields on every query (a block decompressed per hit, a quarter of each branch's search
     * time); a segment never changes, so its array lives until the segment is closed.
     */
    private final Map<IdsKey, String[]> ids = new ConcurrentHashMap<>();

    /**
     * Opens (or creates) the index in {@code directory}; the store takes ownership of the directory.
     *
     * @param name       short name used in error messages
     * @param directory  where the index lives ({@link FSDirectory} in production)
     * @param analyzer   analyzer of the writer (per-field if needed)
     * @param similarity similarity used for both indexing norms and searching
     */
    public LuceneStore(String name, Directory directory, Analyzer analyzer, Similarity similarity) {
        this(name, directory, analyzer, similarity, null);
    }

    /** @param codec how new segments are written (null: Lucene's default codec) */
    public LuceneStore(String name, Directory directory, Analyzer analyzer, Similarity similarity, Codec codec) {
        this.name = Objects.requireNonNull(name, "name");
        this.directory = Objects.requireNonNull(directory, "directory");
        try {
            IndexWriterConfig config = new IndexWriterConfig(analyzer)
                    .setSimilarity(similarity)
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
            if (codec != null) {
                config.setCodec(codec);
            }
            this.writer = new IndexWriter(directory, config);
            this.searchers = new SearcherManager(writer, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(org.apache.lucene.index.IndexReader reader,
                                                 org.apache.lucene.index.IndexReader previous) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setSimilarity(similarity);
                    searcher.setQueryCache(filters);
                    return searcher;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open Lucene index '" + name + "' in " + directory, e);
        }
    }

    /** Opens a file-system directory, creating it if needed. */
    public static Directory fsDirectory(Path path) {
        try {
            return FSDirectory.open(path);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open Lucene directory " + path, e);
        }
    }

    /** Applies the batch, commits, and refreshes searchers. Writes are serialised. */
    public synchronized void write(WriteBatch batch) {
        try {
            batch.apply(writer);
            writer.commit();
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException("Write to Lucene index '" + name + "' failed", e);
        }
    }

    /** As {@link #write(WriteBatch)}, storing the entries of {@code userData} in the commit's user data. */
    public synchronized void write(WriteBatch batch, Map<String, String> userData) {
        Map<String, String> data = commitData();
        data.putAll(userData);
        writer.setLiveCommitData(data.entrySet());
        write(batch);
    }

    /** The user data of the last commit (loaded from the index when it was opened), as a mutable copy. */
    public synchronized Map<String, String> commitData() {
        Map<String, String> data = new HashMap<>();
        Iterable<Map.Entry<String, String>> live = writer.getLiveCommitData();
        if (live != null) {
            live.forEach(e -> data.put(e.getKey(), e.getValue()));
        }
        return data;
    }

    /** Runs {@code read} on the latest searcher. */
    public <T> T read(Read<T> read) {
        IndexSearcher searcher;
        try {
            searcher = searchers.acquire();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot acquire a searcher of Lucene index '" + name + "'", e);
        }
        try {
            return read.apply(searcher);
        } catch (IOException e) {
            throw new UncheckedIOException("Read from Lucene index '" + name + "' failed", e);
        } finally {
            try {
                searchers.release(searcher);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot release a searcher of Lucene index '" + name + "'", e);
            }
        }
    }

    /** The top {@code k} matches of {@code query}: the stored {@code idField} and Lucene's score through {@code score}. */
    public List<Hit> hits(Query query, int k, String idField, DoubleUnaryOperator score) {
        return read(searcher -> top(searcher, query, k, idField, score));
    }

    /** As {@link #hits(Query, int, String, DoubleUnaryOperator)}, the query built on the searcher (null: no hits). */
    public List<Hit> hits(Read<Query> query, int k, String idField, DoubleUnaryOperator score) {
        return read(searcher -> {
            Query q = query.apply(searcher);
            return q == null ? List.of() : top(searcher, q, k, idField, score);
        });
    }

    /**
     * The top {@code k} by score, ties broken by the id (Lucene's own order breaks them by document number, which
     * depends on when a chunk was written). Equal scores are common (BM25 length norms are one byte), so when the
     * k-th score is shared beyond the k-th place, the search is repeated deeper until every chunk of that score
     * is in, and the smallest ids among them are kept.
     */
    private List<Hit> top(IndexSearcher searcher, Query query, int k, String idField,
                          DoubleUnaryOperator score) throws IOException {
        ScoreDoc[] docs = searcher.search(query, k).scoreDocs;
        int depth = k;
        int max = Math.max(k, searcher.getIndexReader().maxDoc());
        while (docs.length == depth && depth < max && docs[depth - 1].score == docs[k - 1].score) {
            depth = (int) Math.min(max, 2L * depth);
            docs = searcher.search(query, depth).scoreDocs;
        }
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        List<ScoredId> ranked = new ArrayList<>(docs.length);
        for (ScoreDoc doc : docs) {
            LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc.doc, leaves));
            ranked.add(new ScoredId(id(leaf, doc.doc - leaf.docBase, idField), doc.score));
        }
        ranked.sort(java.util.Comparator.comparingDouble(ScoredId::score).reversed()
                .thenComparing(ScoredId::id));
        List<Hit> hits = new ArrayList<>(Math.min(k, ranked.size()));
        for (ScoredId r : ranked.subList(0, Math.min(k, ranked.size()))) {
            hits.add(new Hit(r.id(), score.applyAsDouble(r.score())));
        }
        return hits;
    }

    private record ScoredId(String id, float score) {
    }

    private String id(LeafReaderContext leaf, int doc, String idField) throws IOException {
        IndexReader.CacheHelper core = leaf.reader().getCoreCacheHelper();
        if (core == null) {
            return leaf.reader().storedFields().document(doc, Set.of(idField)).get(idField);
        }
        IdsKey key = new IdsKey(core.getKey(), idField);
        String[] known = ids.get(key);
        if (known == null) {
            known = ids.computeIfAbsent(key, x -> {
                core.addClosedListener(closed -> ids.remove(key));
                return new String[leaf.reader().maxDoc()];
            });
        }
        String id = known[doc];
        if (id == null) { // two threads may both read it: the same immutable value, written twice
            id = leaf.reader().storedFields().document(doc, Set.of(idField)).get(idField);
            known[doc] = id;
        }
        return id;
    }

    private record IdsKey(IndexReader.CacheKey core, String field) {
    }

    /** A filter matching documents whose {@code field} is one of {@code values}. */
    public static Query anyOf(String field, Collection<String> values) {
        return new TermInSetQuery(field, values.stream().map(BytesRef::new).toList());
    }

    /**
     * {@link #anyOf} for a search scope's path set. The graph hands out the same set object for a project until
     * the vault changes, so the filter built for it (sorting thousands of paths) is kept for that object.
     * Null when the scope holds the {@code field} value of every document {@code reader} sees (a vault of one
     * project): the filter would only cost (a bit set per segment and query; for HNSW a visit limit and its
     * exact-search fallback) and keep the same documents.
     */
    public Query scopeFilter(String field, Set<String> paths, IndexReader reader) throws IOException {
        ScopeFilter filter = null;
        synchronized (scopeFilters) {
            for (ScopeFilter f : scopeFilters) {
                if (f.paths == paths && f.field.equals(field)) {
                    filter = f;
                    break;
                }
            }
        }
        if (filter == null) {
            filter = new ScopeFilter(field, paths, anyOf(field, paths));
            synchronized (scopeFilters) {
                scopeFilters.addFirst(filter);
                if (scopeFilters.size() > 16) {
                    scopeFilters.removeLast();
                }
            }
        }
        return filter.coversAll(reader) ? null : filter.query;
    }

    /** A scope's filter, and whether it admits every document of the last reader it was checked against. */
    private static final class ScopeFilter {
        final String field;
        final Set<String> paths;
        final Query query;
        /**
         * The cache key of the reader {@link #covers} was computed for (a point-in-time view: a write makes a new
         * one); the key, not the reader, so a closed reader is not kept reachable.
         */
        private Object checked;
        private boolean covers;

        ScopeFilter(String field, Set<String> paths, Query query) {
            this.field = field;
            this.paths = paths;
            this.query = query;
        }

        synchronized boolean coversAll(IndexReader reader) throws IOException {
            IndexReader.CacheHelper helper = reader.getReaderCacheHelper();
            if (helper == null) {
                return holdsEveryValue(reader, field, paths);
            }
            if (checked != helper.getKey()) {
                covers = holdsEveryValue(reader, field, paths);
                checked = helper.getKey();
            }
            return covers;
        }
    }

    /**
     * Whether every document of {@code reader} has a {@code field} term in {@code values}. A term left only by
     * deleted documents counts too (the answer may be a needless false, never a wrong true).
     */
    static boolean holdsEveryValue(IndexReader reader, String field, Set<String> values) throws IOException {
        for (LeafReaderContext leaf : reader.leaves()) {
            Terms terms = leaf.reader().terms(field);
            if (terms == null) {
                if (leaf.reader().maxDoc() > 0) {
                    return false;
                }
                continue;
            }
            if (terms.getDocCount() != leaf.reader().maxDoc()) {
                return false; // a document without the field
            }
            TermsEnum te = terms.iterator();
            for (BytesRef t = te.next(); t != null; t = te.next()) {
                if (!values.contains(t.utf8ToString())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether a live document matches {@code query}; stops at the first one. */
    static boolean anyLiveMatch(IndexSearcher searcher, Query query) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            ScorerSupplier supplier = weight.scorerSupplier(leaf);
            if (supplier == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator docs = supplier.get(1).iterator();
            for (int d = docs.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
                if (live == null || live.get(d)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Live documents. */
    public long count() {
        return read(searcher -> (long) searcher.getIndexReader().numDocs());
    }

    @Override
    public synchronized void close() {
        try (Directory d = directory; IndexWriter w = writer; SearcherManager s = searchers) {
            // try-with-resources closes searchers, then the writer (which commits pending changes), then the directory
        } catch (IOException e) {
            throw new UncheckedIOException("Closing Lucene index '" + name + "' failed", e);
        }
    }
}
