package io.poimen.memory.retrieval.session;

import io.poimen.memory.testsupport.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class ChunkHitsPostgresTest extends ChunkHitsContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestPostgres.freshDatabase("chunk_hits");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
