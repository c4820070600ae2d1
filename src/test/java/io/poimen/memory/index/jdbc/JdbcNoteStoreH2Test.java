package io.poimen.memory.index.jdbc;

import io.poimen.memory.testsupport.TestH2;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

/** {@link JdbcNoteStore} on embedded H2 in PostgreSQL mode, migrated by the common and H2 migrations. */
class JdbcNoteStoreH2Test extends NoteStoreContractTest {

    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestH2.migrated("note_store");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
