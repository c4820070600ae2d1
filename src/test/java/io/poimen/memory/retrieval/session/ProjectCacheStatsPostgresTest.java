package io.poimen.memory.retrieval.session;

import io.poimen.memory.testsupport.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class ProjectCacheStatsPostgresTest extends ProjectCacheStatsContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestPostgres.freshDatabase("cache_stats");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
