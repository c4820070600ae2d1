package io.poimen.memory.testsupport;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;

/** A fresh in-memory H2 database with the embedded profile's options and the hub's migrations applied. */
public final class TestH2 {
    private TestH2() {
    }

    public static DataSource migrated(String name) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + name + "_" + System.nanoTime() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;"
                + "DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration/common", "classpath:db/migration/h2")
                .load().migrate();
        return h2;
    }
}
