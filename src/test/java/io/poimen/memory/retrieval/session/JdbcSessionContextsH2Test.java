package io.poimen.memory.retrieval.session;

import io.poimen.memory.testsupport.TestH2;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class JdbcSessionContextsH2Test extends JdbcSessionContextsContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestH2.migrated("session_contexts");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
