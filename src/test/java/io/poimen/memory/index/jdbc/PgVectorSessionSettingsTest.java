package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * On the prod profile every pooled connection carries the HNSW search settings from the moment it is opened, so a
 * search needs no transaction of its own to set them.
 */
@ActiveProfiles("prod")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.security.mode=none", "server.address=127.0.0.1", "poimen.opensearch.index=session-settings",
        "poimen.vault.ingest-on-startup=false", "camel.main.routes-reload-enabled=false"})
class PgVectorSessionSettingsTest {

    @TempDir
    static Path work;

    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("session_settings");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
        registry.add("poimen.vault.path", () -> work.resolve("vault").toString());
        registry.add("poimen.data.dir", () -> work.resolve("data").toString());
    }

    @Test
    void everyPooledConnectionHasTheHnswSearchSettings() throws SQLException {
        List<Connection> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) { // held at once: three different pooled connections
                Connection connection = dataSource.getConnection();
                held.add(connection);
                assertThat(show(connection, "hnsw.ef_search")).isEqualTo(Integer.toString(PgVectorIndex.DEFAULT_EF_SEARCH));
                assertThat(show(connection, "hnsw.iterative_scan")).isEqualTo("relaxed_order");
            }
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    private static String show(Connection connection, String setting) throws SQLException {
        try (Statement sql = connection.createStatement(); ResultSet rs = sql.executeQuery("show " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
