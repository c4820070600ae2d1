package io.poimen.memory.retention;

import io.poimen.memory.testsupport.TestH2;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

class RetentionH2Test extends RetentionContract {
    private static DataSource dataSource;

    @BeforeAll
    static void migrate() {
        dataSource = TestH2.migrated("retention");
    }

    @Override
    DataSource dataSource() {
        return dataSource;
    }
}
