package io.poimen.memory.index.jdbc;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;

/** {@link JdbcNoteStore} on embedded H2 in PostgreSQL mode, migrated by the common and H2 migrations. */
class JdbcNoteStoreH2Test extends NoteStoreContractTest {

    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:note_store_" + System.nanoTime() + ";MODE=PostgreSQL;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration/common", "classpath:db/migration/h2")
                .load().migrate();
        dataSource = h2;
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
