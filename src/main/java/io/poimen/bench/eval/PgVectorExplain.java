package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.jdbc.PgVectorIndex;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * PostgreSQL's own execution time of a pgvector search: {@code EXPLAIN (ANALYZE, TIMING OFF)} of the first statement
 * {@link PgVectorIndex#search} runs for the same arguments, with its parameters and on a connection with its settings
 * ({@link PgVectorIndex#withSearchStatement}).
 */
final class PgVectorExplain {
    private static final String EXPLAIN = "explain (analyze, timing off, format json) ";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PgVectorExplain() {
    }

    /** @return the plan's {@code Execution Time}, in ms */
    static double executionMillis(PgVectorIndex index, float[] query, SearchScope scope, int k) {
        return index.withSearchStatement(query, scope, k, (connection, statement) -> {
            try (PreparedStatement ps = connection.prepareStatement(EXPLAIN + statement.sql())) {
                statement.bind(ps);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return executionTime(rs.getString(1));
                }
            }
        });
    }

    private static double executionTime(String plan) throws SQLException {
        try {
            JsonNode time = JSON.readTree(plan).path(0).path("Execution Time");
            if (!time.isNumber()) {
                throw new SQLException("no Execution Time in the EXPLAIN output");
            }
            return time.asDouble();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("EXPLAIN answered something that is not JSON", e);
        }
    }
}
