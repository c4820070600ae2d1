package io.poimen.memory.index.lucene;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.VectorModel;
import io.poimen.memory.index.Vectors;
import io.poimen.memory.vault.Chunk;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

/**
 * Embedded HNSW vector index of chunks (Lucene {@link KnnFloatVectorField}, cosine).
 *
 * <p>Vectors are scaled to unit length and compared by dot product, which for unit vectors is the cosine at a
 * third of the arithmetic (building the graph is most of the index's ingest time). An index written before
 * with Lucene's COSINE function keeps it: Lucene does not allow changing a field's function.
 * Lucene scores either as {@code (1 + cos) / 2}; {@link #search} returns {@code cos = 2·score − 1}, the
 * same scale as pgvector's {@code 1 − (a <=> b)}. The graph is searched with {@code max(k, efSearch)} candidates
 * and the best {@code k} are kept, which is what raises recall above the plain top-k walk. A scope is applied as a
 * Lucene KNN filter (pre-filtering: Lucene falls back to exact search when the filter is small). Tags are not
 * filtered here: tag queries are routed to the lexical branch.
 */
public final class LuceneVectorIndex implements VectorIndex, AutoCloseable {
    public static final int DEFAULT_EF_SEARCH = 100;
    private static final String VECTOR = "vector";
    /** Commit user-data key of the embedding model the vectors come from. */
    static final String MODEL_KEY = "poimen.embedding.model";
    /** Commit user-data key: "false" from {@link #clearForModel()} until {@link #markModelComplete()}. */
    static final String COMPLETE_KEY = "poimen.embedding.complete";
    /**
     * HNSW built with pgvector's defaults (m = 16, ef_construction = 64) instead of Lucene's (16, 100): the two
     * vector stores answer alike, and building the graph, most of this index's ingest time, costs a third less.
     */
    static final int MAX_CONN = 16;
    static final int BEAM_WIDTH = 64;
    private static final Codec CODEC = new Lucene912Codec() {
        private final KnnVectorsFormat hnsw = new Lucene99HnswVectorsFormat(MAX_CONN, BEAM_WIDTH);

        @Override
        public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
            return hnsw;
        }
    };

    private final LuceneStore store;
    private final int dimensions;
    private final int efSearch;
    private final VectorSimilarityFunction similarity;
    private final String model;
    /** The model recorded in the last commit; read once at open, then kept by this index's own writes. */
    private volatile String recorded;
    private volatile boolean complete;

    /** Index in {@code directory} (owned and closed by this index) of {@code dimensions}-dim vectors. */
    public LuceneVectorIndex(Directory directory, int dimensions) {
        this(directory, dimensions, DEFAULT_EF_SEARCH);
    }

    public LuceneVectorIndex(Directory directory, int dimensions, int efSearch) {
        this(directory, dimensions, efSearch, EmbeddingModelChoice.defaultChoice().id());
    }

    /**
     * @param efSearch candidates explored per search (at least {@code k}); higher = better recall, slower
     * @param model    id of the embedding model this hub embeds with (recorded in the commit user data)
     */
    public LuceneVectorIndex(Directory directory, int dimensions, int efSearch, String model) {
        if (dimensions < 1 || dimensions > 4096) {
            throw new IllegalArgumentException("Vector dimensions must be in [1, 4096], got " + dimensions);
        }
        if (efSearch < 1) {
            throw new IllegalArgumentException("efSearch must be >= 1, got " + efSearch);
        }
        this.dimensions = dimensions;
        this.efSearch = efSearch;
        this.model = model;
        this.store = new LuceneStore("vector", directory, new KeywordAnalyzer(), new BM25Similarity(), CODEC);
        this.similarity = store.read(searcher -> {
            FieldInfo existing = FieldInfos.getMergedFieldInfos(searcher.getIndexReader()).fieldInfo(VECTOR);
            return existing != null ? existing.getVectorSimilarityFunction() : VectorSimilarityFunction.DOT_PRODUCT;
        });
        Map<String, String> data = store.commitData();
        this.recorded = data.get(MODEL_KEY);
        this.complete = !"false".equals(data.get(COMPLETE_KEY));
    }

    /** Index persisted in the file-system directory {@code path} (created if missing). */
    public static LuceneVectorIndex open(Path path, int dimensions) {
        return new LuceneVectorIndex(LuceneStore.fsDirectory(path), dimensions);
    }

    /** As {@link #open(Path, int)}, for vectors of the embedding model {@code model}. */
    public static LuceneVectorIndex open(Path path, int dimensions, String model) {
        return new LuceneVectorIndex(LuceneStore.fsDirectory(path), dimensions, DEFAULT_EF_SEARCH, model);
    }

    /** Heap-only index (tests, benchmarks). */
    public static LuceneVectorIndex inMemory(int dimensions) {
        return new LuceneVectorIndex(new ByteBuffersDirectory(), dimensions);
    }

    public int dimensions() {
        return dimensions;
    }

    @Override
    public void upsert(List<Chunk> chunks, List<float[]> vectors) {
        Vectors.checkPairs(chunks, vectors, dimensions);
        if (chunks.isEmpty()) {
            return;
        }
        if (!model.equals(recorded)) {
            model().checkWrite(name(), count());
        }
        store.write(writer -> {
            for (int i = 0; i < chunks.size(); i++) {
                Chunk chunk = chunks.get(i);
                Document doc = new Document();
                doc.add(new StringField(LuceneLexicalIndex.CHUNK_ID, chunk.id(), Field.Store.YES));
                doc.add(new StringField(LuceneLexicalIndex.PATH, chunk.path(), Field.Store.NO));
                doc.add(new KnnFloatVectorField(VECTOR, Vectors.unit(vectors.get(i)), similarity));
                writer.updateDocument(new Term(LuceneLexicalIndex.CHUNK_ID, chunk.id()), doc);
            }
        }, Map.of(MODEL_KEY, model));
        recorded = model;
    }

    @Override
    public void deleteByPaths(Collection<String> paths) {
        if (!paths.isEmpty()) {
            store.write(writer -> writer.deleteDocuments(LuceneStore.anyOf(LuceneLexicalIndex.PATH, paths)));
        }
    }

    @Override
    public List<Hit> search(float[] query, SearchScope scope, int k) {
        Vectors.check(query, dimensions, "query vector");
        if (k <= 0 || (scope.paths() != null && scope.paths().isEmpty())) {
            return List.of();
        }
        if (!complete || !model.equals(recorded)) {
            model().checkSearch(name(), count());
        }
        float[] unit = Vectors.unit(query);
        return store.hits(searcher -> {
            Query filter = scope.paths() == null ? null
                    : store.scopeFilter(LuceneLexicalIndex.PATH, scope.paths(), searcher.getIndexReader());
            return new KnnFloatVectorQuery(VECTOR, unit, candidates(k), filter);
        }, k, LuceneLexicalIndex.CHUNK_ID, LuceneVectorIndex::cosine);
    }

    /**
     * The engine's own call, the floor {@code bench latency} compares the branch with: the same k-NN request as
     * {@link #search} ({@code max(k, efSearch)} candidates, best {@code k} kept), without a scope.
     */
    public List<Hit> plainSearch(float[] query, int k) {
        return store.hits(new KnnFloatVectorQuery(VECTOR, Vectors.unit(query), candidates(k)), k,
                LuceneLexicalIndex.CHUNK_ID, LuceneVectorIndex::cosine);
    }

    /** Candidates the graph search collects for the best {@code k}. */
    int candidates(int k) {
        return Math.max(k, efSearch);
    }

    /** Lucene scores cosine and the dot product of unit vectors as (1 + cos) / 2. */
    private static double cosine(double score) {
        return 2.0 * score - 1.0;
    }

    @Override
    public VectorModel model() {
        return new VectorModel(model, Optional.ofNullable(recorded), complete);
    }

    @Override
    public void clearForModel() {
        complete = false; // before the write: no search sees the emptied store as complete
        store.write(IndexWriter::deleteAll, Map.of(MODEL_KEY, model, COMPLETE_KEY, "false"));
        recorded = model;
    }

    @Override
    public void markModelComplete() {
        store.write(writer -> { }, Map.of(MODEL_KEY, model, COMPLETE_KEY, "true"));
        recorded = model;
        complete = true;
    }

    @Override
    public long count() {
        return store.count();
    }

    @Override
    public String name() {
        return "lucene-hnsw";
    }

    @Override
    public void close() {
        store.close();
    }

    /** The function new vectors are compared with: DOT_PRODUCT, or COSINE in an index created with it. */
    VectorSimilarityFunction similarity() {
        return similarity;
    }
}
