package io.poimen.memory.retention;

import io.poimen.memory.testsupport.TestPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class RetentionPostgresTest extends RetentionContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestPostgres.freshDatabase("retention");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
