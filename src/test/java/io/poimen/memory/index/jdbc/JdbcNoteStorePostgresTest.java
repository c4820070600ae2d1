package io.poimen.memory.index.jdbc;

import io.poimen.memory.testsupport.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

/** {@link JdbcNoteStore} on PostgreSQL, migrated by the common and PostgreSQL migrations. */
class JdbcNoteStorePostgresTest extends NoteStoreContractTest {

    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestPostgres.freshDatabase("note_store");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
