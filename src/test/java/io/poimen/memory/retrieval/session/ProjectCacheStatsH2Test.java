package io.poimen.memory.retrieval.session;

import io.poimen.memory.testsupport.TestH2;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class ProjectCacheStatsH2Test extends ProjectCacheStatsContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestH2.migrated("cache_stats");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
