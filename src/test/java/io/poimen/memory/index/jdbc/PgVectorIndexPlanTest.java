package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.pgvector.PGvector;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.testsupport.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Query plans of {@link PgVectorIndex} on a table large enough ({@value #ROWS} rows) for PostgreSQL to prefer the
 * HNSW index over an exact scan. On a few thousand rows the planner rightly picks the exact scan instead.
 */
class PgVectorIndexPlanTest {

    private static final int ROWS = 10_000;
    private static final int DIMS = 384;

    private static DataSource dataSource;
    private static PgVectorIndex index;

    /** Random rows generated in SQL, with the HNSW index rebuilt afterwards: one build beats 10,000 inserts. */
    @BeforeAll
    static void loadRows() {
        dataSource = TestPostgres.freshDatabase("pg_vector_plan");
        index = new PgVectorIndex(dataSource, DIMS);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        String indexDefinition = jdbc.queryForObject(
                "select pg_get_indexdef('chunk_vectors_embedding_idx'::regclass)", String.class);
        jdbc.execute("drop index chunk_vectors_embedding_idx");
        jdbc.queryForObject("select setseed(0.42)", Object.class);
        jdbc.update("insert into chunk_vectors (chunk_id, path, project, embedding)"
                + " select 'n-' || (i / 5) || '.md#' || (i % 5), 'n-' || (i / 5) || '.md', 'p',"
                + " (select array_agg(random() - 0.5)::vector(" + DIMS + ") from generate_series(1, " + DIMS + ")"
                + " where i >= 0) from generate_series(0, " + (ROWS - 1) + ") i");
        jdbc.execute(indexDefinition);
        jdbc.execute("analyze chunk_vectors");
    }

    @Test
    void unscopedSearchIsPlannedOnTheHnswIndexUnderTheSearchSettings() throws SQLException {
        float[] query = vectorOf("n-7.md#2");
        List<String> plan = new ArrayList<>();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            index.applySearchSettings(connection, 10);
            try (PreparedStatement explain = connection.prepareStatement("explain " + PgVectorIndex.SEARCH_ALL)) {
                explain.setObject(1, new PGvector(query));
                explain.setObject(2, new PGvector(query));
                explain.setInt(3, 10);
                try (ResultSet rs = explain.executeQuery()) {
                    while (rs.next()) {
                        plan.add(rs.getString(1));
                    }
                }
            }
            connection.rollback();
        }

        assertThat(String.join("\n", plan)).contains("Index Scan using chunk_vectors_embedding_idx");
    }

    /**
     * A large project scope as a project filter keeps the HNSW index: the filter is checked on the rows the index
     * scan yields (iteratively, until k pass). The list of every path is planned the same way, but each query sends,
     * parses and hashes that whole array: a cost linear in the scope (its plan is printed for the record).
     */
    @Test
    void aLargeProjectScopeIsPlannedOnTheHnswIndex() throws SQLException {
        float[] query = vectorOf("n-7.md#2");
        String[] all = new String[ROWS / 5];
        for (int i = 0; i < all.length; i++) {
            all[i] = "n-" + i + ".md";
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            index.applySearchSettings(connection, 10);
            List<String> byProject = explain(connection, PgVectorIndex.SEARCH_PROJECT, ps -> {
                ps.setObject(1, new PGvector(query));
                ps.setString(2, "p");
                ps.setArray(3, connection.createArrayOf("text", new String[] {"n-3.md"}));
                ps.setArray(4, connection.createArrayOf("text", new String[0]));
                ps.setObject(5, new PGvector(query));
                ps.setInt(6, 10);
            });
            List<String> byPaths = explain(connection, PgVectorIndex.SEARCH_SCOPED, ps -> {
                ps.setObject(1, new PGvector(query));
                ps.setArray(2, connection.createArrayOf("text", all));
                ps.setObject(3, new PGvector(query));
                ps.setInt(4, 10);
            });
            connection.rollback();
            System.out.println("plan of every path of the scope as a list:");
            byPaths.forEach(line -> System.out.println(line.length() > 120 ? line.substring(0, 120) + "..." : line));
            assertThat(String.join("\n", byProject)).contains("Index Scan using chunk_vectors_embedding_idx");
        }
    }

    private interface Bind {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private static List<String> explain(Connection connection, String sql, Bind bind) throws SQLException {
        List<String> plan = new ArrayList<>();
        try (PreparedStatement explain = connection.prepareStatement("explain " + sql)) {
            bind.bind(explain);
            try (ResultSet rs = explain.executeQuery()) {
                while (rs.next()) {
                    plan.add(rs.getString(1));
                }
            }
        }
        return plan;
    }

    /**
     * Uniform random vectors are the hard case for HNSW (neighbours are barely closer than strangers), so recall is
     * printed here for the record; the recall bound is asserted on realistic sizes in {@link PgVectorIndexTest}.
     */
    @Test
    void indexedSearchReturnsKRowsInScoreOrder() {
        int queries = 20;
        int k = 10;
        double found = 0;
        for (int q = 0; q < queries; q++) {
            float[] query = vectorOf("n-" + (q * 97) + ".md#" + (q % 5));
            List<Hit> hits = index.search(query, SearchScope.all(), k);
            Set<String> exact = exactTop(query, k);

            assertThat(hits).hasSize(k);
            assertThat(hits).isSortedAccordingTo(Comparator.comparingDouble(Hit::score).reversed());
            assertThat(hits).extracting(Hit::chunkId).contains("n-" + (q * 97) + ".md#" + (q % 5));
            found += hits.stream().filter(hit -> exact.contains(hit.chunkId())).count();
        }
        double recall = found / (queries * k);
        System.out.printf("pgvector recall@%d over %d queries on %d uniform random vectors (HNSW planned,"
                + " ef_search=%d): %.3f%n", k, queries, ROWS, PgVectorIndex.DEFAULT_EF_SEARCH, recall);
    }

    private static Set<String> exactTop(float[] query, int k) {
        return new HashSet<>(new JdbcTemplate(dataSource).queryForList(
                "select chunk_id from chunk_vectors order by (embedding <=> ?) + 0 limit ?", String.class,
                new PGvector(query), k));
    }

    private static float[] vectorOf(String chunkId) {
        return new JdbcTemplate(dataSource).queryForObject("select embedding::text from chunk_vectors where chunk_id = ?",
                (rs, row) -> {
                    try {
                        return new PGvector(rs.getString(1)).toArray();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }, chunkId);
    }
}
