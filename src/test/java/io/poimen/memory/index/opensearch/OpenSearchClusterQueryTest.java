package io.poimen.memory.index.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.opensearch.node.Node;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The query route on PostgreSQL + pgvector and a two-node OpenSearch cluster whose index has one replica: a node
 * stopped while queries run takes nothing away from the answers.
 */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=two-nodes", "poimen.opensearch.replicas=1", "poimen.vault.ingest-on-startup=false",
        "camel.main.routes-reload-enabled=false"})
class OpenSearchClusterQueryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Queries that must be answered completely after one of the two nodes stopped. */
    private static final int AFTER_STOP = 20;
    private static final List<Integer> HTTP_PORTS = new ArrayList<>();
    private static OpenSearchRunner cluster;

    @Autowired ProducerTemplate producer;

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("opensearch_cluster");
        cluster = TestOpenSearch.cluster("poimen-two", 2, HTTP_PORTS);
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", () -> "http://127.0.0.1:" + HTTP_PORTS.get(0)
                + ",http://127.0.0.1:" + HTTP_PORTS.get(1));
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void stoppingOneNodeUnderQueryLoadLeavesEveryAnswerCompleteAndNotDegraded() throws Exception {
        IngestReport ingested = producer.requestBody("direct:ingest", Path.of("examples/vault"), IngestReport.class);
        assertThat(ingested.chunks()).isPositive();
        // poimen.opensearch.replicas=1: green means the replica is allocated on the other node
        assertThat(cluster.client().admin().indices().prepareGetSettings("two-nodes").get()
                .getSetting("two-nodes", "index.number_of_replicas")).isEqualTo("1");
        cluster.ensureGreen("two-nodes");
        List<String> queries = List.of("how do I fix a pod in CrashLoopBackOff", "kubectl rollout restart",
                "wiki links between notes", "token budget for the context");
        List<List<String>> expected = new ArrayList<>();
        for (String q : queries) {
            JsonNode r = query(q);
            assertThat(r.path("degraded")).as(r.toString()).isEmpty();
            assertThat(r.path("results")).isNotEmpty();
            expected.add(paths(r));
        }

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger answered = new AtomicInteger();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        ExecutorService clients = Executors.newFixedThreadPool(2);
        for (int c = 0; c < 2; c++) {
            int offset = c;
            clients.submit(() -> {
                for (int i = offset; running.get(); i++) {
                    int q = i % queries.size();
                    try {
                        JsonNode r = query(queries.get(q));
                        if (!r.path("degraded").isEmpty() || !paths(r).equals(expected.get(q))) {
                            problems.add(queries.get(q) + " -> " + r.path("degraded") + " " + paths(r));
                        }
                        answered.incrementAndGet();
                    } catch (Exception e) {
                        problems.add(queries.get(q) + " -> " + e);
                    }
                }
            });
        }
        // counted in answers, not in seconds: a loaded machine answers fewer per second, never fewer in all
        await().atMost(Duration.ofSeconds(120)).until(() -> answered.get() >= 8 || !problems.isEmpty());
        int beforeStop = answered.get();
        Node stopped = cluster.nonMasterNode();
        stopped.close();
        await().atMost(Duration.ofSeconds(180)).until(() -> answered.get() >= beforeStop + AFTER_STOP
                || !problems.isEmpty());
        running.set(false);
        clients.shutdown();
        assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        assertThat(stopped.isClosed()).isTrue();
        System.out.printf("[opensearch-cluster] %d queries answered, %d of them after one of two nodes stopped%n",
                answered.get(), answered.get() - beforeStop);
        assertThat(problems).as("answers that were degraded, incomplete or failed").isEmpty();
        assertThat(answered.get()).as("queries answered after the stop")
                .isGreaterThanOrEqualTo(beforeStop + AFTER_STOP);
    }

    private JsonNode query(String text) throws IOException {
        String body = JSON.createObjectNode().put("project", "poimen").put("query", text).toString();
        return JSON.readTree(producer.requestBody("direct:query", body.getBytes(StandardCharsets.UTF_8), String.class));
    }

    private static List<String> paths(JsonNode r) {
        List<String> p = new ArrayList<>();
        r.path("results").forEach(x -> p.add(x.path("path").asText()));
        return p;
    }
}
