package io.poimen.memory.retrieval.session;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;

class ChunkHitsH2Test extends ChunkHitsContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:chunk_hits_" + System.nanoTime() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;"
                + "DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration/common", "classpath:db/migration/h2")
                .load().migrate();
        dataSource = h2;
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
