package io.poimen.memory.retrieval.session;

import io.poimen.memory.testsupport.TestH2;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class ChunkHitsH2Test extends ChunkHitsContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestH2.migrated("chunk_hits");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
