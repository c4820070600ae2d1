package io.poimen.memory.retrieval.session;

import io.poimen.memory.testsupport.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class JdbcSessionContextsPostgresTest extends JdbcSessionContextsContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestPostgres.freshDatabase("session_contexts");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
