package io.poimen.memory.index.jdbc;

import com.pgvector.PGvector;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.VectorModel;
import io.poimen.memory.index.Vectors;
import io.poimen.memory.vault.Chunk;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link VectorIndex} on the pgvector table {@code chunk_vectors} ({@code db/migration/postgresql/V2__vectors.sql}),
 * searched through its HNSW cosine index.
 *
 * <p>score = 1 − cosine distance = cos(q, v). Each search runs in its own transaction with {@code SET LOCAL
 * hnsw.ef_search = min(1000, max(efSearch, k))} and {@code SET LOCAL hnsw.iterative_scan = relaxed_order}: a plain
 * HNSW scan returns at most ef_search rows, and sometimes fewer, before or after the path filter; the iterative scan
 * keeps going until {@code k} rows pass. When that still yields fewer than {@code k} rows (fewer exist in scope, or
 * the scan hit {@code hnsw.max_scan_tuples}) the search is repeated exactly, without the index, so a search always
 * returns min(k, chunks in scope) rows. For small scopes PostgreSQL usually plans the path index and an exact sort
 * anyway, which is exact and cheap.
 */
public class PgVectorIndex implements VectorIndex {

    /** HNSW candidate list size per query; pgvector's default of 40 loses recall at k = 10..50. */
    public static final int DEFAULT_EF_SEARCH = 100;
    static final String HNSW_INDEX = "chunk_vectors_embedding_idx";
    /** Memory for one HNSW build: the graph of 100,000 vectors of 384 dimensions fits, so it is built in memory. */
    static final String BUILD_MEMORY = "512MB";
    /** pgvector's upper bound for {@code hnsw.ef_search}. */
    static final int MAX_EF_SEARCH = 1000;
    private static final int BATCH_SIZE = 500;

    private static final String UPSERT = "insert into chunk_vectors (chunk_id, path, project, embedding)"
            + " values (?, ?, ?, ?) on conflict (chunk_id) do update"
            + " set path = excluded.path, project = excluded.project, embedding = excluded.embedding";
    static final String SEARCH_ALL = "select chunk_id, 1 - (embedding <=> ?) as score from chunk_vectors"
            + " order by embedding <=> ? limit ?";
    static final String SEARCH_SCOPED = "select chunk_id, 1 - (embedding <=> ?) as score from chunk_vectors"
            + " where path = any(?) order by embedding <=> ? limit ?";
    /** Same ordering as {@link #SEARCH_ALL}, written so that the HNSW index cannot serve it: an exact scan. */
    static final String SEARCH_ALL_EXACT = "select chunk_id, 1 - (embedding <=> ?) as score from chunk_vectors"
            + " order by (embedding <=> ?) + 0 limit ?";
    /** Same ordering as {@link #SEARCH_SCOPED}, written so that the HNSW index cannot serve it: an exact scan. */
    static final String SEARCH_SCOPED_EXACT = "select chunk_id, 1 - (embedding <=> ?) as score"
            + " from chunk_vectors where path = any(?) order by (embedding <=> ?) + 0 limit ?";

    static final String STORE = "chunk_vectors";
    private static final String RECORD_MODEL = "insert into vector_store_model (store, model) values (?, ?)"
            + " on conflict (store) do update set model = excluded.model, recorded_at = current_timestamp";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final int dimensions;
    private final int efSearch;
    private final String model;
    /** The model recorded in vector_store_model; read on first use (after Flyway ran), then kept by own writes. */
    private volatile String recorded;
    private volatile boolean recordRead;

    public PgVectorIndex(DataSource dataSource, int dimensions) {
        this(dataSource, dimensions, DEFAULT_EF_SEARCH);
    }

    public PgVectorIndex(DataSource dataSource, int dimensions, int efSearch) {
        this(dataSource, dimensions, efSearch, EmbeddingModelChoice.defaultChoice().id());
    }

    /** @param model id of the embedding model this hub embeds with, recorded with the vectors */
    public PgVectorIndex(DataSource dataSource, int dimensions, int efSearch, String model) {
        if (dimensions < 1 || efSearch < 1 || efSearch > MAX_EF_SEARCH) {
            throw new IllegalArgumentException("dimensions must be positive and efSearch in 1..1000, got "
                    + dimensions + " and " + efSearch);
        }
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.dimensions = dimensions;
        this.efSearch = efSearch;
        this.model = model;
    }

    @Override
    public void upsert(List<Chunk> chunks, List<float[]> vectors) {
        Vectors.checkPairs(chunks, vectors, dimensions);
        checkModel();
        boolean first = !model.equals(recorded);
        List<Integer> rows = new ArrayList<>(chunks.size());
        for (int i = 0; i < chunks.size(); i++) {
            rows.add(i);
        }
        tx.executeWithoutResult(status -> jdbc.batchUpdate(UPSERT, rows, BATCH_SIZE, (ps, i) -> {
            Chunk chunk = chunks.get(i);
            ps.setString(1, chunk.id());
            ps.setString(2, chunk.path());
            ps.setString(3, chunk.project());
            ps.setObject(4, new PGvector(vectors.get(i)));
        }));
        if (first) {
            jdbc.update(RECORD_MODEL, STORE, model);
            recorded = model;
        }
    }

    /** Building the graph once over all rows is several times faster than inserting each row into it. */
    @Override
    public void beginBulkLoad() {
        jdbc.execute("drop index if exists " + HNSW_INDEX);
    }

    /** Same definition as the migration ({@code V2__vectors.sql}); a no-op when the index exists. */
    @Override
    public void endBulkLoad() {
        tx.executeWithoutResult(status -> {
            jdbc.execute("set local maintenance_work_mem = '" + BUILD_MEMORY + "'");
            jdbc.execute("create index if not exists " + HNSW_INDEX
                    + " on chunk_vectors using hnsw (embedding vector_cosine_ops)");
        });
    }

    @Override
    public void deleteByPaths(Collection<String> paths) {
        jdbc.batchUpdate("delete from chunk_vectors where path = ?", paths, 500, (ps, path) -> ps.setString(1, path));
    }

    @Override
    public List<Hit> search(float[] query, SearchScope scope, int k) {
        Vectors.check(query, dimensions, "query vector");
        if (k <= 0 || (scope.paths() != null && scope.paths().isEmpty())) {
            return List.of();
        }
        checkModel();
        return tx.execute(status -> jdbc.execute((ConnectionCallback<List<Hit>>) connection -> {
            applySearchSettings(connection, k);
            PGvector vector = new PGvector(query);
            Array paths = scope.paths() == null ? null : connection.createArrayOf("text", scope.paths().toArray());
            List<Hit> hits = run(connection, paths == null ? SEARCH_ALL : SEARCH_SCOPED, vector, paths, k);
            return hits.size() < k
                    ? run(connection, paths == null ? SEARCH_ALL_EXACT : SEARCH_SCOPED_EXACT, vector, paths, k)
                    : hits;
        }));
    }

    @Override
    public long count() {
        Long count = jdbc.queryForObject("select count(*) from chunk_vectors", Long.class);
        return count == null ? 0 : count;
    }

    @Override
    public String name() {
        return "pgvector";
    }

    @Override
    public VectorModel model() {
        if (!recordRead) {
            List<String> rows = jdbc.queryForList("select model from vector_store_model where store = ?",
                    String.class, STORE);
            recorded = rows.isEmpty() ? null : rows.get(0);
            recordRead = true;
        }
        return new VectorModel(model, Optional.ofNullable(recorded));
    }

    @Override
    public void clearForModel() {
        tx.executeWithoutResult(status -> {
            jdbc.update("delete from " + STORE);
            jdbc.update(RECORD_MODEL, STORE, model);
        });
        recorded = model;
        recordRead = true;
    }

    private void checkModel() {
        if (!model.equals(recorded)) {
            model().check(name(), count());
        }
    }

    /** The transaction-local settings every search runs with (see the class comment). */
    void applySearchSettings(Connection connection, int k) throws SQLException {
        try (Statement settings = connection.createStatement()) {
            settings.execute("set local hnsw.ef_search = " + Math.min(MAX_EF_SEARCH, Math.max(efSearch, k)));
            settings.execute("set local hnsw.iterative_scan = relaxed_order");
        }
    }

    private static List<Hit> run(Connection connection, String sql, PGvector vector, Array paths, int k)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            int index = 1;
            ps.setObject(index++, vector);
            if (paths != null) {
                ps.setArray(index++, paths);
            }
            ps.setObject(index++, vector);
            ps.setInt(index, k);
            List<Hit> hits = new ArrayList<>(k);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    hits.add(new Hit(rs.getString(1), rs.getDouble(2)));
                }
            }
            // relaxed_order may return rows slightly out of distance order
            hits.sort(Comparator.comparingDouble(Hit::score).reversed());
            return hits;
        }
    }
}
