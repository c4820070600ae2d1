package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Bulk mode of {@link PgVectorIndex}: no HNSW index while loading, searches still right, the index built after. */
class PgVectorBulkLoadTest {
    private static final int DIMS = 384;

    @Test
    void loadsWithoutTheHnswIndexAndBuildsItOnceAfter() {
        DataSource db = TestPostgres.freshDatabase("pg_vector_bulk");
        JdbcTemplate jdbc = new JdbcTemplate(db);
        PgVectorIndex index = new PgVectorIndex(db, DIMS);
        assertThat(hnswIndexes(jdbc)).isEqualTo(1); // from the migration

        index.beginBulkLoad();
        assertThat(hnswIndexes(jdbc)).isZero();
        Random random = new Random(7);
        List<Chunk> chunks = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            chunks.add(new Chunk("bulk/n" + i + ".md#0", "bulk/n" + i + ".md", "p", 0, "h", List.of("h"), "text " + i,
                    3, new ChunkMetadata("h", "text", List.of(), "concept"), List.of()));
            float[] v = new float[DIMS];
            for (int d = 0; d < DIMS; d++) {
                v[d] = (float) random.nextGaussian();
            }
            vectors.add(v);
        }
        index.upsert(chunks, vectors);
        // without the index the search is exact: a stored vector finds itself first
        List<Hit> during = index.search(vectors.get(42), SearchScope.all(), 5);
        assertThat(during.get(0).chunkId()).isEqualTo("bulk/n42.md#0");

        index.endBulkLoad();
        assertThat(hnswIndexes(jdbc)).isEqualTo(1);
        index.endBulkLoad(); // idempotent: a run that finds the index there leaves it
        assertThat(hnswIndexes(jdbc)).isEqualTo(1);
        assertThat(index.search(vectors.get(42), SearchScope.all(), 5).get(0).chunkId()).isEqualTo("bulk/n42.md#0");
        assertThat(index.count()).isEqualTo(300);
    }

    private static int hnswIndexes(JdbcTemplate jdbc) {
        Integer n = jdbc.queryForObject("select count(*) from pg_indexes where tablename = 'chunk_vectors'"
                + " and indexdef like '%USING hnsw%'", Integer.class);
        return n == null ? 0 : n;
    }
}
