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
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link VectorIndex} on the pgvector table {@code chunk_vectors} ({@code db/migration/postgresql/V2__vectors.sql}),
 * searched through its HNSW cosine index.
 *
 * <p>score = 1 − cosine distance = cos(q, v). Each search runs with {@code hnsw.ef_search = min(1000, max(efSearch,
 * k))} and {@code hnsw.iterative_scan = relaxed_order}: a plain HNSW scan returns at most ef_search rows, and
 * sometimes fewer, before or after the path filter; the iterative scan keeps going until {@code k} rows pass. When
 * the pool sets both on each new connection ({@link #sessionSettings}, the prod profile's Hikari
 * {@code connectionInitSql}) a search with {@code k <= efSearch} is one statement in autocommit; otherwise it runs in
 * its own transaction with {@code SET LOCAL} (three more round trips). When that still yields fewer than {@code k} rows (fewer exist in scope, or
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
    /** Searches of a project filter repeated for rows of notes newer than the scope (a brief window after ingest). */
    private static final int MAX_UNKNOWN_ROUNDS = 3;

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

    /** A large project scope ({@link SearchScope.ProjectFilter}): the project's chunks, less some notes, plus some. */
    static final String SEARCH_PROJECT = "select chunk_id, 1 - (embedding <=> ?) as score from chunk_vectors"
            + " where ((project = ? and path <> all(?)) or path = any(?)) order by embedding <=> ? limit ?";
    /** Same ordering as {@link #SEARCH_PROJECT}, written so that the HNSW index cannot serve it: an exact scan. */
    static final String SEARCH_PROJECT_EXACT = "select chunk_id, 1 - (embedding <=> ?) as score from chunk_vectors"
            + " where ((project = ? and path <> all(?)) or path = any(?)) order by (embedding <=> ?) + 0 limit ?";

    static final String STORE = "chunk_vectors";
    /** The first write of a store without a record; a record already there (a re-embedding's) stays as it is. */
    private static final String RECORD_MODEL = "insert into vector_store_model (store, model, complete)"
            + " values (?, ?, true) on conflict (store) do nothing";
    private static final String RESTART_MODEL = "insert into vector_store_model (store, model, complete)"
            + " values (?, ?, ?) on conflict (store) do update set model = excluded.model,"
            + " complete = excluded.complete, recorded_at = current_timestamp";
    /**
     * How long a search trusts the model record it read last: other replicas may re-embed the shared table,
     * and reading the record for every query would cost a round trip per query.
     */
    static final long RECORD_TTL_NANOS = 1_000_000_000L;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final int dimensions;
    private final int efSearch;
    private final String model;
    /** Whether every connection of the data source already runs {@link #sessionSettings} for {@link #efSearch}. */
    private final boolean connectionsPrepared;
    /** The record of vector_store_model as last read (after Flyway ran) or written; null before the first read. */
    private volatile VectorModel record;
    private volatile long recordReadNanos;

    public PgVectorIndex(DataSource dataSource, int dimensions) {
        this(dataSource, dimensions, DEFAULT_EF_SEARCH);
    }

    public PgVectorIndex(DataSource dataSource, int dimensions, int efSearch) {
        this(dataSource, dimensions, efSearch, EmbeddingModelChoice.defaultChoice().id());
    }

    /** @param model id of the embedding model this hub embeds with, recorded with the vectors */
    public PgVectorIndex(DataSource dataSource, int dimensions, int efSearch, String model) {
        this(dataSource, dimensions, efSearch, model, false);
    }

    /**
     * @param connectionsPrepared every connection {@code dataSource} hands out has run {@link #sessionSettings}
     *                            with this {@code efSearch} (a pool's init SQL); searches then skip the transaction
     */
    public PgVectorIndex(DataSource dataSource, int dimensions, int efSearch, String model,
                         boolean connectionsPrepared) {
        if (dimensions < 1 || efSearch < 1 || efSearch > MAX_EF_SEARCH) {
            throw new IllegalArgumentException("dimensions must be positive and efSearch in 1..1000, got "
                    + dimensions + " and " + efSearch);
        }
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.dimensions = dimensions;
        this.efSearch = efSearch;
        this.model = model;
        this.connectionsPrepared = connectionsPrepared;
    }

    /**
     * The settings every search needs, as SQL for a pool to run once on each new connection (session level, so no
     * search has to set them in a transaction of its own).
     */
    public static String sessionSettings(int efSearch) {
        return "set hnsw.ef_search = " + efSearch + "; set hnsw.iterative_scan = relaxed_order";
    }

    @Override
    public void upsert(List<Chunk> chunks, List<float[]> vectors) {
        Vectors.checkPairs(chunks, vectors, dimensions);
        VectorModel current = model();
        current.checkWrite(name(), current.recorded().isPresent() ? 0 : count());
        boolean first = current.recorded().isEmpty();
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
            record = null; // read again: another replica may have recorded first
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
        VectorModel current = recentRecord();
        if (!current.searchable(0) || current.recorded().isEmpty()) {
            current.checkSearch(name(), current.recorded().isPresent() ? 0 : count());
        }
        ConnectionCallback<List<Hit>> search = connection -> {
            SearchStatement first = firstStatement(connection, new PGvector(query), scope, k);
            if (first.project() != null) {
                return searchProject(connection, first, scope, k);
            }
            List<Hit> hits = run(connection, first);
            return hits.size() < k ? run(connection, first.exact()) : hits;
        };
        return inSearchSettings(k, search);
    }

    /** {@code work} on a connection with the search settings for k: the session's, or a transaction's own. */
    private <T> T inSearchSettings(int k, ConnectionCallback<T> work) {
        if (connectionsPrepared && k <= efSearch) {
            return jdbc.execute(work);
        }
        return tx.execute(status -> jdbc.execute((ConnectionCallback<T>) connection -> {
            applySearchSettings(connection, k);
            return work.doInConnection(connection);
        }));
    }

    /**
     * Runs {@code work} with the first statement {@link #search} runs for these arguments, on a connection with the
     * same search settings, and returns what it answers: a benchmark can run that very statement its own way (EXPLAIN
     * ANALYZE) without the index knowing about it.
     */
    public <T> T withSearchStatement(float[] query, SearchScope scope, int k, StatementWork<T> work) {
        Vectors.check(query, dimensions, "query vector");
        return inSearchSettings(k, connection ->
                work.run(connection, firstStatement(connection, new PGvector(query), scope, k)));
    }

    /** What {@link #withSearchStatement} hands a statement to. */
    public interface StatementWork<T> {
        T run(Connection connection, SearchStatement statement) throws SQLException;
    }

    /**
     * One search statement and its parameters. {@code project} (with {@code without} and {@code extra}) is set for
     * a project filter, {@code paths} for a scope of listed paths; neither for all chunks.
     */
    public record SearchStatement(String sql, PGvector vector, Array paths, String project, Array without,
                                  Array extra, int k) {
        /** Binds the parameters, in the order {@link #sql} takes them. */
        public void bind(PreparedStatement ps) throws SQLException {
            int index = 1;
            ps.setObject(index++, vector);
            if (project != null) {
                ps.setString(index++, project);
                ps.setArray(index++, without);
                ps.setArray(index++, extra);
            } else if (paths != null) {
                ps.setArray(index++, paths);
            }
            ps.setObject(index++, vector);
            ps.setInt(index, k);
        }

        /** The same search as an exact scan (the HNSW index cannot serve it). */
        SearchStatement exact() {
            String twin = project != null ? SEARCH_PROJECT_EXACT : paths != null ? SEARCH_SCOPED_EXACT
                    : SEARCH_ALL_EXACT;
            return new SearchStatement(twin, vector, paths, project, without, extra, k);
        }

        /** The same project filter, excluding these paths. */
        SearchStatement without(Array excluded) {
            return new SearchStatement(sql, vector, paths, project, excluded, extra, k);
        }
    }

    /** The statement a search starts with: through the HNSW index, on the scope's paths or project filter. */
    private static SearchStatement firstStatement(Connection connection, PGvector vector, SearchScope scope, int k)
            throws SQLException {
        SearchScope.ProjectFilter f = scope.byProject();
        if (f != null) {
            return new SearchStatement(SEARCH_PROJECT, vector, null, f.project(),
                    connection.createArrayOf("text", f.excluded().toArray()),
                    connection.createArrayOf("text", f.extra().toArray()), k);
        }
        Array paths = scope.paths() == null ? null : connection.createArrayOf("text", scope.paths().toArray());
        return new SearchStatement(paths == null ? SEARCH_ALL : SEARCH_SCOPED, vector, paths, null, null, null, k);
    }

    /**
     * The project filter instead of every path of a large scope. A row of a note the scope does not know (stored
     * after the link graph was built) is dropped, never a candidate, and the search repeated without its note.
     */
    private static List<Hit> searchProject(Connection connection, SearchStatement first, SearchScope scope, int k)
            throws SQLException {
        Set<String> excluded = new LinkedHashSet<>(scope.byProject().excluded());
        SearchStatement statement = first;
        List<Hit> kept = List.of();
        for (int pass = 0; pass < 2; pass++) {
            for (int round = 0; round < MAX_UNKNOWN_ROUNDS; round++) {
                List<Hit> hits = run(connection, statement);
                kept = hits.stream().filter(h -> scope.containsChunk(h.chunkId())).toList();
                if (kept.size() == hits.size()) {
                    break;
                }
                hits.stream().filter(h -> !scope.containsChunk(h.chunkId()))
                        .forEach(h -> excluded.add(SearchScope.pathOfChunk(h.chunkId())));
                statement = statement.without(connection.createArrayOf("text", excluded.toArray()));
            }
            if (kept.size() >= k) {
                return kept;
            }
            statement = statement.exact();
        }
        return kept;
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

    /** Reads the record from the database (a replica that is not the writer sees the writer's changes). */
    @Override
    public VectorModel model() {
        List<VectorModel> rows = jdbc.query("select model, complete from vector_store_model where store = ?",
                (rs, i) -> new VectorModel(model, Optional.of(rs.getString(1)), rs.getBoolean(2)), STORE);
        VectorModel read = rows.isEmpty() ? new VectorModel(model, Optional.empty()) : rows.get(0);
        record = read;
        recordReadNanos = System.nanoTime();
        return read;
    }

    private VectorModel recentRecord() {
        VectorModel r = record;
        return r != null && System.nanoTime() - recordReadNanos < RECORD_TTL_NANOS ? r : model();
    }

    @Override
    public void clearForModel() {
        record = new VectorModel(model, Optional.of(model), false); // no search of this replica sees it complete
        tx.executeWithoutResult(status -> {
            jdbc.update(RESTART_MODEL, STORE, model, false);
            jdbc.update("delete from " + STORE);
        });
        model();
    }

    @Override
    public void markModelComplete() {
        jdbc.update(RESTART_MODEL, STORE, model, true);
        model();
    }

    /** The transaction-local settings every search runs with (see the class comment). */
    void applySearchSettings(Connection connection, int k) throws SQLException {
        try (Statement settings = connection.createStatement()) {
            settings.execute("set local hnsw.ef_search = " + Math.min(MAX_EF_SEARCH, Math.max(efSearch, k)));
            settings.execute("set local hnsw.iterative_scan = relaxed_order");
        }
    }

    private static List<Hit> run(Connection connection, SearchStatement statement) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(statement.sql())) {
            statement.bind(ps);
            List<Hit> hits = new ArrayList<>(statement.k());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    hits.add(new Hit(rs.getString(1), rs.getDouble(2)));
                }
            }
            // relaxed_order may return rows slightly out of distance order; equal distances by chunk id (which of
            // several equal distances at the k-th place enters is still PostgreSQL's choice)
            hits.sort(Hit.BEST_FIRST);
            return hits;
        }
    }
}
