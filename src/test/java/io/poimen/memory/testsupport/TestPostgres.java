package io.poimen.memory.testsupport;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * PostgreSQL (with pgvector) for tests. Uses the cluster at env {@code POIMEN_TEST_PG_URL} or system property
 * {@code poimen.test.pg.url}; without either, starts a throwaway cluster with {@code scripts/pg-cluster.sh} once per
 * JVM and stops it at JVM exit.
 */
public final class TestPostgres {

    public static final String URL_ENV = "POIMEN_TEST_PG_URL";
    public static final String URL_PROPERTY = "poimen.test.pg.url";
    public static final String EMBEDDING_DIMS = "384";

    private static final String SCRIPT = "scripts/pg-cluster.sh";
    private static final List<HikariDataSource> POOLS = new ArrayList<>();
    private static final List<String> CREATED_DATABASES = new ArrayList<>();
    private static String url;
    private static Path ownCluster;

    private TestPostgres() {
    }

    /** JDBC URL of the test cluster's default database, e.g. {@code jdbc:postgresql://127.0.0.1:5432/poimen?user=x}. */
    public static synchronized String jdbcUrl() {
        if (url == null) {
            String configured = System.getenv(URL_ENV);
            if (configured == null || configured.isBlank()) {
                configured = System.getProperty(URL_PROPERTY);
            }
            url = configured == null || configured.isBlank() ? startCluster() : configured.trim();
            Runtime.getRuntime().addShutdownHook(new Thread(TestPostgres::cleanUp, "test-postgres-cleanup"));
        }
        return url;
    }

    /**
     * A new, empty database named {@code <name>_<pid>} (dropped first if it exists), migrated by Flyway from
     * {@code db/migration/common} and {@code db/migration/postgresql} with {@code dims=384}.
     */
    public static synchronized DataSource freshDatabase(String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(freshDatabaseUrl(name));
        config.setMaximumPoolSize(4);
        config.setPoolName("test-" + name);
        HikariDataSource dataSource = new HikariDataSource(config);
        POOLS.add(dataSource);
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration/common", "classpath:db/migration/postgresql")
                .placeholders(Map.of("dims", EMBEDDING_DIMS))
                .load()
                .migrate();
        return dataSource;
    }

    /** A new, empty database named {@code <name>_<pid>} (dropped first if it exists); its JDBC URL. */
    public static synchronized String freshDatabaseUrl(String name) {
        String database = (name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_") + "_"
                + ProcessHandle.current().pid());
        String base = jdbcUrl();
        try (Connection admin = DriverManager.getConnection(base); Statement sql = admin.createStatement()) {
            sql.execute("drop database if exists " + database + " with (force)");
            sql.execute("create database " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + database + " on " + base, e);
        }
        CREATED_DATABASES.add(database);
        return withDatabase(base, database);
    }

    /**
     * Makes the database of {@code jdbcUrl} refuse new connections and ends the open ones (as if its server were
     * gone), or lets it accept them again.
     */
    public static synchronized void refuseConnections(String jdbcUrl, boolean refuse) {
        String database = jdbcUrl.replaceFirst("^jdbc:postgresql://[^/]+/", "").replaceFirst("\\?.*$", "");
        try (Connection admin = DriverManager.getConnection(jdbcUrl()); Statement sql = admin.createStatement()) {
            sql.execute("alter database " + database + " allow_connections " + !refuse);
            if (refuse) {
                sql.execute("select pg_terminate_backend(pid) from pg_stat_activity where datname = '" + database + "'");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot change connections of " + database, e);
        }
    }

    /** {@code jdbc:postgresql://host:port/db?params} with {@code db} replaced. */
    static String withDatabase(String jdbcUrl, String database) {
        int hostStart = jdbcUrl.indexOf("//");
        int pathStart = jdbcUrl.indexOf('/', hostStart + 2);
        int query = jdbcUrl.indexOf('?', hostStart + 2);
        String host = pathStart < 0 || (query >= 0 && query < pathStart)
                ? jdbcUrl.substring(0, query < 0 ? jdbcUrl.length() : query)
                : jdbcUrl.substring(0, pathStart);
        return host + "/" + database + (query < 0 ? "" : jdbcUrl.substring(query));
    }

    private static String startCluster() {
        Path project = projectDir();
        ownCluster = project.resolve("target/pg-" + ProcessHandle.current().pid());
        List<String> output = runScript(project, "start", ownCluster);
        String started = output.stream().filter(line -> line.startsWith("jdbc:postgresql:")).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException(SCRIPT + " start printed no JDBC URL: " + output));
        return started.trim();
    }

    private static void cleanUp() {
        POOLS.forEach(HikariDataSource::close);
        if (ownCluster != null) {
            runScript(projectDir(), "stop", ownCluster);
            deleteTree(ownCluster);
            return;
        }
        try (Connection admin = DriverManager.getConnection(url); Statement sql = admin.createStatement()) {
            for (String database : CREATED_DATABASES) {
                sql.execute("drop database if exists " + database + " with (force)");
            }
        } catch (SQLException e) {
            System.err.println("could not drop test databases " + CREATED_DATABASES + ": " + e.getMessage());
        }
    }

    private static Path projectDir() {
        return TestScripts.projectDir(SCRIPT, "set " + URL_ENV + " to a PostgreSQL cluster with pgvector instead");
    }

    private static List<String> runScript(Path project, String command, Path clusterDir) {
        return TestScripts.run(project, SCRIPT, Duration.ofSeconds(120), command, clusterDir.toString());
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e.getMessage());
        }
    }
}
