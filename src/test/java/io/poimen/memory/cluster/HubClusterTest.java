package io.poimen.memory.cluster;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.zaxxer.hikari.HikariDataSource;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.grc.WebhookSignature;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.ExampleVault;
import io.poimen.memory.testsupport.TestKeycloak;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Three hub processes on the production profile (OIDC through Keycloak) sharing one PostgreSQL + pgvector database
 * and one OpenSearch node, each with its own git working copy of one vault remote: one writer, followers that stay
 * current, failover when the writer is killed. A round-robin reverse proxy without session affinity
 * ({@link RoundRobinProxy}) stands in front of them, as the Kubernetes Service and Ingress do: an MCP session, the
 * agent event stream, a retrieval session and the limits per caller work through it whichever replica answers
 * each request (issue 27), also while a replica is killed. The tests run in order on the same three processes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HubClusterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final String SECRET = "cluster-webhook-secret";
    private static final String PULLS = "/api/v1/repos/team/vault/pulls";
    private static final String INDEX = "cluster-test";
    private static final int BULK_NOTES = 240;
    /** Queries per minute per caller, shared by the three replicas (each allows a third). */
    private static final int QUERY_LIMIT = 300;
    private static final Path ROOT = Path.of("target/hub-cluster/" + UUID.randomUUID()).toAbsolutePath();
    private static final WireMockServer FORGEJO = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    private static final List<HubProcess> HUBS = new ArrayList<>();
    /** The harness's own caller: an admin and editor of platform-team, a user of the realm made for this test. */
    private static final Supplier<String> OPERATOR = new FreshToken(() -> TestKeycloak.userToken("cluster-operator"));
    /** The agents' client (client credentials): platform-team, editor. */
    private static final Supplier<String> AGENT = new FreshToken(TestKeycloak::agentToken);
    /** platform-team and devops-team: may read project poimen. */
    private static final Supplier<String> CHARLIE = new FreshToken(() -> TestKeycloak.userToken("charlie"));
    /** data-team: may not read project poimen. */
    private static final Supplier<String> ALICE = new FreshToken(() -> TestKeycloak.userToken("alice"));
    private static RoundRobinProxy proxy;
    private static HikariDataSource db;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void threeHubs() throws Exception {
        String dbUrl = TestPostgres.freshDatabaseUrl("hub_cluster");
        String openSearch = TestOpenSearch.url();
        TestKeycloak.ensureUser("cluster-operator", List.of("platform-team"), List.of("admin", "editor"));
        FORGEJO.start();
        forgejoDown();
        seedRemote();
        for (int i = 1; i <= 3; i++) {
            Path dir = ROOT.resolve("hub-" + i);
            Map<String, String> p = new LinkedHashMap<>();
            p.put("spring.profiles.active", "prod");
            p.put("server.address", "127.0.0.1");
            p.put("spring.datasource.url", dbUrl);
            p.put("poimen.opensearch.url", openSearch);
            p.put("poimen.opensearch.index", INDEX);
            p.put("poimen.security.issuer-uri", TestKeycloak.issuer());
            p.put("poimen.limits.replicas", "3");
            p.put("poimen.limits.query-per-minute", Integer.toString(QUERY_LIMIT));
            p.put("poimen.limits.writes-per-minute", "1200");
            p.put("poimen.vault.path", dir.resolve("vault").toString());
            p.put("poimen.vault.files-per-batch", "10");
            p.put("poimen.data.dir", dir.resolve("data").toString());
            p.put("poimen.routes-dir", Path.of("routes").toAbsolutePath().toString());
            p.put("poimen.policies.dir", Path.of("policies").toAbsolutePath().toString());
            p.put("camel.main.routes-reload-enabled", "false");
            p.put("poimen.git.enabled", "true");
            p.put("poimen.git.remote", ROOT.resolve("remote.git").toString());
            p.put("poimen.git.poll-period", "3600000");
            p.put("poimen.git.initial-delay", "3600000");
            p.put("poimen.webhook.secret", SECRET);
            p.put("poimen.forgejo.url", FORGEJO.baseUrl());
            p.put("poimen.forgejo.token", "forgejo-token");
            p.put("poimen.forgejo.owner", "team");
            p.put("poimen.forgejo.repo", "vault");
            p.put("poimen.forgejo.delivery.redelivery-delay", "50");
            p.put("poimen.forgejo.delivery.retry-period", "300");
            p.put("poimen.forgejo.delivery.backoff-base", "200ms");
            p.put("poimen.forgejo.delivery.backoff-max", "1s");
            p.put("poimen.forgejo.delivery.delivering-timeout", "5s");
            HUBS.add(HubProcess.start("hub-" + i, dir, p, OPERATOR));
        }
        proxy = new RoundRobinProxy(HUBS.stream().map(h -> h.port).toList());
        db = new HikariDataSource();
        db.setJdbcUrl(dbUrl);
        db.setMaximumPoolSize(2);
        jdbc = new JdbcTemplate(db);
        for (HubProcess hub : HUBS) {
            // a loaded 2-core machine starts three hubs slowly (more than 300 s at load 33, 2026-12-04)
            awaitTrue(Duration.ofSeconds(900), () -> {
                assertThat(hub.alive()).as(hub + " exited:\n" + hub.logTail()).isTrue();
                return hub.ready();
            }, hub + " ready");
        }
        awaitTrue(Duration.ofSeconds(300), () -> undone() == 0 && allFollow(), "startup ingest followed everywhere");
    }

    @AfterAll
    static void stop() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        for (HubProcess hub : HUBS) {
            hub.kill();
        }
        if (db != null) {
            db.close();
        }
        FORGEJO.stop();
    }

    @Test
    @Order(1)
    void exactlyOneWriterAndEveryReplicaHoldsTheSameIndex() throws Exception {
        assertThat(HUBS.stream().filter(h -> cluster(h).path("leader").asBoolean()).count()).isEqualTo(1);
        String leaderId = cluster(leader()).path("node_id").asText();
        for (HubProcess hub : HUBS) {
            assertThat(cluster(hub).path("leader_id").asText()).as(hub.name).isEqualTo(leaderId);
        }
        assertThat(count("documents")).isGreaterThan(30);
        assertSameAnswers("how do I fix a pod in CrashLoopBackOff", live());
        // the writer's master routes run (camel-master 4.17's false budget WARN after each start is dropped by
        // MasterStartBudgetFilter: MasterStartBudgetFilterTest, which also checks the logging configuration has it)
        HubProcess writer = leader();
        awaitTrue(Duration.ofSeconds(60), () -> Files.readString(writer.log).split("Consumer started", -1).length > 6,
                "the writer's six master routes started");
        List<String> started = Files.readString(writer.log).lines().filter(l -> l.contains("Consumer started"))
                .toList();
        for (String route : List.of("cluster-requests", "grc-retry", "git-sync-poll", "cluster-trim", "session-trim",
                "retention")) {
            assertThat(started).as(route).anyMatch(l -> l.contains(route)); // JSON lines escape the slashes
        }
    }

    @Test
    @Order(2)
    void aSignedWebhookToAFollowerMakesTheChangeSearchableOnEveryReplica() throws Exception {
        HubProcess follower = HUBS.stream().filter(h -> !cluster(h).path("leader").asBoolean()).findFirst().orElseThrow();
        String path = "projects/poimen/runbooks/zyxquorum-restart.md";
        String commit = pushToMain(Map.of(path, "# Zyxquorum restart\n\nRestart the zyxquorum daemon with "
                + "systemctl restart zyxquorum when its quorum is lost.\n"), "Zyxquorum runbook");

        long t0 = System.nanoTime();
        HttpResponse<String> answer = webhook(follower, commit);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        Map<String, Long> seenMillis = new LinkedHashMap<>();
        // a query every 250 ms per replica at most: the operator's queries are limited like anyone's
        awaitTrue(Duration.ofSeconds(20), Duration.ofMillis(250), () -> {
            for (HubProcess hub : HUBS) {
                if (!seenMillis.containsKey(hub.name) && finds(hub, "zyxquorum daemon restart", path)) {
                    seenMillis.put(hub.name, (System.nanoTime() - t0) / 1_000_000);
                }
            }
            return seenMillis.size() == HUBS.size();
        }, "the new note searchable on every replica");
        long first = seenMillis.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        long last = seenMillis.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        // printed, not asserted: the follower catch-up is a figure (docs/operations.md), a bound would fail on a
        // loaded machine (3.8 s seen at load 27 against 1.0-1.4 s at load 12)
        System.out.println("[cluster] webhook to " + follower.name + " -> searchable (ms): " + seenMillis
                + "; followers behind the first replica by at most " + (last - first) + " ms");
        // one row for the delivery id and one for the commit it announced (a replay under a new id is a duplicate)
        assertThat(count("webhook_deliveries where delivery_id not like 'commit:%'")).isEqualTo(1);
        assertThat(count("webhook_deliveries where delivery_id = 'commit:" + commit + "'")).isEqualTo(1);
        assertSameAnswers("zyxquorum daemon restart", live());
    }

    /**
     * A 10-turn session through the round-robin proxy (each turn on the next replica) keeps the same contexts and
     * prefix reuse as the same session on one replica: its previous context is in {@code session_contexts}, not in
     * one process. TF-IDF only, so that no branch timing out on a loaded machine makes two runs of a turn differ.
     */
    @Test
    @Order(3)
    void aSessionKeepsItsPrefixReuseWhicheverReplicaAnswersEachTurn() throws Exception {
        List<String> questions = List.of("why does my pod keep restarting in CrashLoopBackOff",
                "how do I read the logs of the previous container of a crashing pod",
                "what does an OOMKilled exit code mean for the pod",
                "how do I raise the memory limit of the deployment",
                "how can I check node pressure when pods get evicted",
                "kubectl describe pod events for a crashing pod",
                "how do I debug a failing liveness probe of the pod",
                "which network policies block traffic between pods",
                "how do I restart the pod after fixing its memory limit",
                "where is the cluster layout of the poimen project documented");
        Set<Integer> upstreams = new TreeSet<>();
        List<String> spread = session(questions, body -> {
            HttpResponse<String> r = proxied("POST", "/memory/query", body, OPERATOR, Map.of());
            upstreams.add(Integer.parseInt(r.headers().firstValue(RoundRobinProxy.UPSTREAM).orElse("0")));
            return r;
        });
        List<String> single = session(questions, body -> live().get(0).postJson("/memory/query", body));
        System.out.println("[cluster] session turns (prefix_reuse context) through the proxy, answered by replicas "
                + upstreams + ": " + spread);
        assertThat(upstreams).as("every replica answered turns").hasSize(HUBS.size());
        assertThat(spread).as("turn by turn: prefix_reuse and context").isEqualTo(single);
        assertThat(single.stream().skip(1).mapToDouble(t -> Double.parseDouble(t.split(" ")[0])).max().orElse(0))
                .as("later turns reuse a prefix of the earlier ones").isPositive();
    }

    /** Sends a query's JSON body to a hub. */
    private interface QueryPost {
        HttpResponse<String> send(String body) throws IOException;
    }

    /** Each turn's {@code prefix_reuse} and context chunk ids, each turn sent by {@code post}. */
    private static List<String> session(List<String> questions, QueryPost post) throws IOException {
        String session = "cluster-session-" + UUID.randomUUID();
        List<String> turns = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            String body = JSON.createObjectNode().put("project", "poimen").put("query", questions.get(i))
                    .put("search_method", "tfidf").put("session_id", session).toString();
            HttpResponse<String> r = post.send(body);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode a = JSON.readTree(r.body());
            assertThat(a.path("degraded").size()).as(a.path("degraded").toString()).isZero();
            turns.add(a.path("context").path("prefix_reuse").asDouble() + " " + a.path("context").path("chunks"));
        }
        return turns;
    }

    /**
     * Issue 27 item 2: an MCP client of the SDK makes 50 tool calls in one session through the round-robin proxy,
     * so every replica answers some of them: none fails, and the session is one retrieval session on all of them
     * (the searches' events carry the one MCP session id).
     */
    @Test
    @Order(4)
    void anMcpSessionOf50ToolCallsThroughTheProxyHasNoFailure() throws Exception {
        String agent = "cluster-mcp-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> questions = List.of("why does my pod keep restarting", "kubectl logs of the previous container",
                "how do I raise the memory limit", "which network policies block traffic between pods");
        List<Long> millis = new ArrayList<>();
        int searches = 0;
        try (McpSyncClient mcp = McpClients.connect(proxy.url(), AGENT, agent)) {
            for (int i = 0; i < 50; i++) {
                McpSchema.CallToolRequest call = switch (i % 5) {
                    case 0, 1 -> new McpSchema.CallToolRequest("search_memory", Map.of("project", "poimen",
                            "query", questions.get(i % questions.size()), "top_k", 3));
                    case 2 -> new McpSchema.CallToolRequest("read_note",
                            Map.of("path", "projects/poimen/tools/kubectl.md"));
                    case 3 -> new McpSchema.CallToolRequest("list_skills", Map.of());
                    default -> new McpSchema.CallToolRequest("build_context",
                            Map.of("path", "projects/poimen/tools/kubectl.md", "budget_tokens", 500));
                };
                long t0 = System.nanoTime();
                McpSchema.CallToolResult result = mcp.callTool(call);
                millis.add((System.nanoTime() - t0) / 1_000_000);
                assertThat(result.isError()).as(call.name() + ": " + McpClients.text(result)).isFalse();
                searches += call.name().equals("search_memory") ? 1 : 0;
            }
        }
        HttpResponse<String> log = proxied("GET", "/memory/agents/logs?limit=1000&agent_id=" + agent, null, AGENT,
                Map.of());
        JsonNode events = JSON.readTree(log.body()).path("events");
        assertThat(events).as(log.body()).hasSize(searches);
        assertThat(events.findValuesAsText("session_id").stream().distinct().toList()).as("one MCP session")
                .hasSize(1).allMatch(id -> !id.isBlank());
        System.out.println("[cluster] MCP session through the proxy: 50 tool calls, 0 failures; call time (ms) p50 "
                + percentile(millis, 50) + ", p95 " + percentile(millis, 95) + ", max " + Collections.max(millis));
    }

    /**
     * Issue 27 item 3: 200 events of four agents posted through the proxy (so accepted by every replica) reach a
     * subscriber whose stream the proxy gave to one replica: each once, and in order per agent; and with today's
     * filtering: a subscriber who may not read the project gets none of them (her own later event shows her
     * stream was live). The delay from post to receipt is printed.
     */
    @Test
    @Order(5)
    void eventsPostedThroughTheProxyReachASubscriberOnAnyReplicaOnceAndInOrder() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<Long, Long> postedAt = new ConcurrentHashMap<>();
        Map<String, Integer> acceptedBy = new ConcurrentHashMap<>();
        try (ResumingEventStream charlie = new ResumingEventStream(proxy.url(), CHARLIE);
             ResumingEventStream alice = new ResumingEventStream(proxy.url(), ALICE)) {
            awaitTrue(Duration.ofSeconds(60), () -> charlie.connected() && alice.connected(), "streams open");
            ExecutorService posters = Executors.newFixedThreadPool(4);
            List<Future<?>> done = new ArrayList<>();
            for (int a = 0; a < 4; a++) {
                String agent = "feed-" + run + "-" + a;
                done.add(posters.submit(() -> {
                    for (int seq = 0; seq < 50; seq++) {
                        long t0 = System.nanoTime();
                        HttpResponse<String> r = proxied("POST", "/memory/agents/events", event(agent, seq), AGENT,
                                Map.of());
                        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
                        postedAt.put(JSON.readTree(r.body()).path("id").asLong(), t0);
                        acceptedBy.merge(r.headers().firstValue(RoundRobinProxy.UPSTREAM).orElse("?"), 1,
                                Integer::sum);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            posters.shutdown();
            awaitTrue(Duration.ofSeconds(120), () -> ofRun(charlie, run).size() >= 200, "200 events on the stream");
            String mine = "alice-" + run;
            HttpResponse<String> own = proxied("POST", "/memory/agents/events", JSON.createObjectNode()
                    .put("agent_id", "own").put("type", "agent_decision").set("payload", JSON.createObjectNode()
                            .put("note", mine)).toString(), ALICE, Map.of());
            assertThat(own.statusCode()).as(own.body()).isEqualTo(201);
            awaitTrue(Duration.ofSeconds(60), () -> alice.events.stream().anyMatch(e -> e.event().toString()
                    .contains(mine)), "alice's own event on her stream");

            List<ResumingEventStream.Received> got = ofRun(charlie, run);
            assertThat(got.stream().map(ResumingEventStream.Received::id).toList()).as("each event once")
                    .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(postedAt.keySet());
            Map<String, List<Integer>> seqByAgent = new TreeMap<>();
            got.forEach(e -> seqByAgent.computeIfAbsent(e.event().path("agent_id").asText(), k -> new ArrayList<>())
                    .add(e.event().path("payload").path("seq").asInt()));
            List<Integer> fifty = IntStream.range(0, 50).boxed().toList();
            assertThat(seqByAgent).hasSize(4).allSatisfy((agent, seqs) -> assertThat(seqs).as(agent)
                    .isEqualTo(fifty));
            assertThat(ofRun(alice, run)).as("alice may not read poimen").isEmpty();
            assertThat(acceptedBy).as("events accepted by replica port").hasSize(HUBS.size());
            List<Long> delays = got.stream().map(e -> (e.nanos() - postedAt.get(e.id())) / 1_000_000).toList();
            System.out.println("[cluster] 200 events through the proxy (accepted by replica port " + acceptedBy
                    + ") to a stream on replica port " + charlie.upstream() + ": 0 lost, 0 duplicated, order kept "
                    + "per agent; post-to-receipt (ms) p50 " + percentile(delays, 50) + ", p95 "
                    + percentile(delays, 95) + ", max " + Collections.max(delays));
        }
    }

    /**
     * Issue 27 item 5 through the proxy: the agents' client sends queries until it is over its limit (each replica
     * allows a third of it) and gets 429s, and goes on; charlie's queries meanwhile all succeed. The agent sends
     * until refused rather than a fixed number, as how many fit in a minute depends on the machine's speed.
     */
    @Test
    @Order(6)
    void aCallerOverItsLimitGets429sWhileAnotherCallersQueriesAllSucceed() throws Exception {
        String body = JSON.createObjectNode().put("project", "poimen").put("query", "kubectl logs of a crashing pod")
                .put("search_method", "tfidf").toString();
        Map<Integer, Integer> agent = new ConcurrentHashMap<>();
        Map<Integer, Integer> charlie = new TreeMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService callers = Executors.newFixedThreadPool(3);
        List<Future<?>> done = new ArrayList<>();
        int refusedDuringCharlie;
        try {
            for (int t = 0; t < 3; t++) {
                done.add(callers.submit(() -> {
                    while (!stop.get()) {
                        agent.merge(proxied("POST", "/memory/query", body, AGENT, Map.of()).statusCode(), 1,
                                Integer::sum);
                    }
                    return null;
                }));
            }
            await("the agent over its limit").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                    .until(() -> agent.getOrDefault(429, 0) > 0);
            int refusedBefore = agent.getOrDefault(429, 0);
            for (int i = 0; i < 30; i++) {
                charlie.merge(proxied("POST", "/memory/query", body, CHARLIE, Map.of()).statusCode(), 1, Integer::sum);
            }
            refusedDuringCharlie = agent.getOrDefault(429, 0) - refusedBefore;
        } finally {
            stop.set(true);
            for (Future<?> f : done) {
                f.get();
            }
            callers.shutdown();
        }
        System.out.println("[cluster] limits through the proxy (" + QUERY_LIMIT + " queries/min per caller, a third "
                + "per replica): the agent's queries by status " + agent + " (" + refusedDuringCharlie
                + " refused while charlie asked), charlie's 30 by status " + charlie);
        assertThat(agent.keySet()).as("the agent's answers").containsOnly(200, 429);
        assertThat(refusedDuringCharlie).as("429s for the agent while charlie asked").isPositive();
        assertThat(charlie).as("charlie's answers").isEqualTo(Map.of(200, 30));
    }

    @Test
    @Order(7)
    void aReindexAskedOfAFollowerIsQueuedForTheWriterWhichRunsIt() throws Exception {
        HubProcess follower = HUBS.stream().filter(h -> !cluster(h).path("leader").asBoolean()).findFirst().orElseThrow();
        String followerId = cluster(follower).path("node_id").asText();
        String writerId = cluster(leader()).path("node_id").asText();

        HttpResponse<String> answer = follower.postJson("/memory/admin/reindex", "{}");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        JsonNode body = JSON.readTree(answer.body());
        assertThat(body.path("status").asText()).isEqualTo("queued");
        assertThat(body.path("request").asText()).isEqualTo("ingest");
        Long id = jdbc.queryForObject("select max(id) from cluster_requests where kind = 'ingest' and origin = ?",
                Long.class, followerId);
        assertThat(id).as("the follower recorded the request").isNotNull();
        awaitTrue(Duration.ofSeconds(30), () -> jdbc.queryForObject(
                "select count(*) from cluster_requests where id = ? and done_at is not null", Integer.class, id) == 1,
                "the writer ran the queued reindex");
        assertThat(jdbc.queryForObject("select done_by from cluster_requests where id = ?", String.class, id))
                .isEqualTo(writerId);
        assertThat(jdbc.queryForObject("select error from cluster_requests where id = ?", String.class, id)).isNull();
    }

    /**
     * The writer is killed in the middle of an ingest; another finishes it. Meanwhile traffic goes on through the
     * proxy (issue 27, "one replica killed in the middle"): an MCP session's calls each succeed, at most after one
     * retry; events posted one after the other reach three streams (one was on the killed replica and resumes on
     * another with {@code Last-Event-ID}) each once, in order, none lost.
     */
    @Test
    @Order(8)
    void killingTheWriterInTheMiddleOfAnIngestLetsAnotherFinishItWithEqualCountsEverywhere() throws Exception {
        Map<String, String> notes = new LinkedHashMap<>();
        for (int i = 0; i < BULK_NOTES; i++) {
            notes.put("projects/poimen/bulk/note-" + i + ".md", bulkNote(i));
        }
        String commit = pushToMain(notes, "Bulk notes");
        HubProcess leader = leader();
        int before = count("documents");
        FailoverTraffic traffic = new FailoverTraffic(proxy, AGENT, UUID.randomUUID().toString().substring(0, 8));
        long killed;
        try (traffic) {
            assertThat(webhook(leader, commit).statusCode()).isEqualTo(202);
            awaitTrue(Duration.ofSeconds(60), () -> count("documents") > before + 20, "the ingest under way");
            awaitTrue(Duration.ofSeconds(120), () -> traffic.posted.size() >= 10 && traffic.calls.size() >= 5,
                    "traffic under way");
            traffic.openStreamsUntilOneOn(leader.port, CHARLIE, 12, Duration.ofSeconds(60));
            ResumingEventStream onWriter = traffic.streams.get(traffic.streams.size() - 1);
            awaitTrue(Duration.ofSeconds(60), () -> !ofRun(onWriter, traffic.agent).isEmpty(),
                    "the stream on the writer live");
            int atKill = count("documents");
            killed = System.nanoTime();
            leader.kill();
            HUBS.remove(leader);
            assertThat(atKill).as("killed in the middle").isLessThan(before + BULK_NOTES);
            awaitTrue(Duration.ofSeconds(300), () -> traffic.posted.values().stream().filter(t -> t > killed).count()
                    >= 20 && traffic.calls.stream().filter(c -> c.startNanos() > killed).count() >= 10,
                    "traffic goes on after the kill");
            traffic.stop();
            awaitTrue(Duration.ofSeconds(120), () -> traffic.streams.stream().allMatch(st -> ofRun(st, traffic.agent)
                    .stream().map(ResumingEventStream.Received::id).collect(Collectors.toSet())
                    .containsAll(ackedSince(traffic, st))), "every acknowledged event on every stream");
            checkFailover(traffic, leader.port, killed);
        }

        HubProcess next = awaitLeader(killed);
        // the new writer embeds the ~200 notes (~800 chunks) left: 80-140 s at 6-10 chunks/s on a 2-core machine
        // at load 30 (2026-12-03), so 90 s was too short there; the failover itself is checked in awaitLeader
        awaitTrue(Duration.ofSeconds(300), () -> count("documents") == before + BULK_NOTES && undone() == 0
                && allFollow(), "the new writer finished the ingest and every replica follows");
        int files = markdownFiles();
        assertThat(count("documents")).isEqualTo(files);
        int chunks = count("chunks");
        assertThat(count("chunk_vectors")).isEqualTo(chunks);
        assertThat(openSearchCount()).isEqualTo(chunks);
        for (HubProcess hub : HUBS) {
            JsonNode c = cluster(hub);
            assertThat(c.path("tfidf_chunks").asInt()).as(hub.name).isEqualTo(chunks);
            assertThat(c.path("graph_notes").asInt()).as(hub.name).isEqualTo(files);
        }
        assertThat(next.alive()).isTrue();
        assertSameAnswers("bulk note ferrocene lattice " + (BULK_NOTES - 1), live());
    }

    @Test
    @Order(9)
    void withForgejoDownWhileTheWriterDiesTheDraftStillBecomesExactlyOnePullRequest() throws Exception {
        forgejoDown();
        HubProcess leader = leader();
        String request = JSON.createObjectNode().put("document_path", "projects/poimen/runbooks/zyxquorum-restart.md")
                .put("content", "# Zyxquorum restart\n\nRestart it twice.\n").put("message", "Restart twice")
                .toString();
        HttpResponse<String> created = leader.postJson("/memory/grc/draft", request);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String draft = JSON.readTree(created.body()).path("draft_id").asText();

        long killed = System.nanoTime();
        leader.kill();
        HUBS.remove(leader);
        FORGEJO.resetAll();
        FORGEJO.stubFor(get(urlPathEqualTo(PULLS)).willReturn(okJson("[]")));
        FORGEJO.stubFor(post(urlPathEqualTo(PULLS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody("{\"id\":107,\"number\":7,\"state\":\"open\","
                        + "\"merged\":false,\"html_url\":\"http://forgejo.test/team/vault/pulls/7\",\"head\":{\"ref\":\"x\"}}")));
        HubProcess survivor = awaitLeader(killed);
        awaitTrue(Duration.ofSeconds(60), () -> "open".equals(JSON.readTree(
                survivor.get("/memory/grc/drafts/" + draft).body()).path("status").asText()), "draft delivered");
        // one pull request when it is delivered; that a delivered draft is never due or claimed again, however late
        // a retry runs, is DraftStoreTest's (no sleep here waiting for a second delivery that should not come)
        assertThat(FORGEJO.countRequestsMatching(postRequestedFor(urlPathEqualTo(PULLS)).build()).getCount())
                .isEqualTo(1);
        assertThat(jdbc.queryForObject("select pr_number from grc_drafts where id = ?", Integer.class, draft))
                .isEqualTo(7);
    }

    // ---------------------------------------------------------------------------------------------------------

    private static HubProcess leader() throws Exception {
        awaitTrue(Duration.ofSeconds(20), () -> HUBS.stream().anyMatch(h -> cluster(h).path("leader").asBoolean()),
                "a writer");
        return HUBS.stream().filter(h -> cluster(h).path("leader").asBoolean()).findFirst().orElseThrow();
    }

    /** Waits for a surviving replica to lead; prints and checks the failover time. */
    private static HubProcess awaitLeader(long killedNanos) throws Exception {
        awaitTrue(Duration.ofSeconds(120), () -> HUBS.stream().anyMatch(h -> cluster(h).path("leader").asBoolean()),
                "a new writer");
        long ms = (System.nanoTime() - killedNanos) / 1_000_000;
        System.out.println("[cluster] failover: a new writer " + ms + " ms after the kill"); // a figure, not a bound
        return leader();
    }

    private static List<HubProcess> live() {
        return List.copyOf(HUBS);
    }

    private static boolean allFollow() {
        int chunks = count("chunks");
        int notes = count("documents");
        return HUBS.stream().allMatch(h -> cluster(h).path("tfidf_chunks").asInt() == chunks
                && cluster(h).path("graph_notes").asInt() == notes);
    }

    private static JsonNode cluster(HubProcess hub) {
        try {
            return hub.cluster();
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static boolean finds(HubProcess hub, String query, String path) throws IOException {
        JsonNode answer = query(hub, query, "tfidf");
        for (JsonNode r : answer.path("results")) {
            if (path.equals(r.path("path").asText())) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode query(HubProcess hub, String query, String method) throws IOException {
        String body = JSON.createObjectNode().put("project", "poimen").put("query", query)
                .put("search_method", method).toString();
        HttpResponse<String> r = hub.postJson("/memory/query", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** The same hybrid query answers the same ranked chunks, scores and degraded list on every replica. */
    private static void assertSameAnswers(String text, List<HubProcess> hubs) throws IOException {
        List<String> answers = new ArrayList<>();
        for (HubProcess hub : hubs) {
            JsonNode a = query(hub, text, "hybrid");
            assertThat(a.path("degraded").size()).as(hub.name + " degraded: " + a.path("degraded")).isZero();
            assertThat(a.path("results").size()).as(hub.name).isPositive();
            StringBuilder s = new StringBuilder();
            a.path("results").forEach(r -> s.append(r.path("doc_id").asText()).append('@')
                    .append(String.format("%.6f", r.path("score").asDouble())).append(' '));
            answers.add(s.toString());
        }
        assertThat(answers).as("answers by replica").allMatch(answers.get(0)::equals);
    }

    private static HttpResponse<String> webhook(HubProcess hub, String commit) throws IOException {
        byte[] body = ("{\"ref\":\"refs/heads/main\",\"before\":\"0000000000000000000000000000000000000000\","
                + "\"after\":\"" + commit + "\",\"commits\":[],\"repository\":{\"full_name\":\"team/vault\"}}")
                .getBytes(StandardCharsets.UTF_8);
        return hub.post("/memory/webhooks/forgejo", body, Map.of("Content-Type", "application/json",
                "X-Forgejo-Event", "push", "X-Forgejo-Delivery", UUID.randomUUID().toString(),
                "X-Forgejo-Signature", WebhookSignature.sign(SECRET, body)));
    }

    private static void forgejoDown() {
        FORGEJO.resetAll();
        FORGEJO.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503).withBody("maintenance")));
    }

    private static String bulkNote(int i) {
        StringBuilder s = new StringBuilder("# Bulk note " + i + "\n\nThe ferrocene lattice " + i
                + " keeps its spin under load; see [[index]].\n");
        for (int section = 1; section <= 3; section++) {
            s.append("\n## Section ").append(section).append("\n\n");
            for (int line = 0; line < 6; line++) {
                s.append("Measurement ").append(i).append('.').append(section).append('.').append(line)
                        .append(" of the lattice shows drift number ").append(i * 31 + line).append(" in run ")
                        .append(section).append(".\n");
            }
        }
        return s.toString();
    }

    private static void seedRemote() throws Exception {
        Path seed = ROOT.resolve("seed");
        ExampleVault.copyTo(seed);
        Git.init().setBare(true).setInitialBranch("main").setDirectory(ROOT.resolve("remote.git").toFile()).call().close();
        try (Git git = Git.init().setInitialBranch("main").setDirectory(seed.toFile()).call()) {
            git.add().addFilepattern(".").call();
            commit(git, "Example vault");
            git.remoteAdd().setName("origin").setUri(new org.eclipse.jgit.transport.URIish(
                    ROOT.resolve("remote.git").toUri().toString())).call();
            git.push().setRemote("origin").add("main").call();
        }
    }

    private static String pushToMain(Map<String, String> files, String message) throws Exception {
        try (Git git = Git.open(ROOT.resolve("seed").toFile())) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path file = ROOT.resolve("seed").resolve(f.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, f.getValue());
                git.add().addFilepattern(f.getKey()).call();
            }
            String id = commit(git, message);
            git.push().setRemote("origin").add("main").call();
            return id;
        }
    }

    private static String commit(Git git, String message) throws Exception {
        PersonIdent who = new PersonIdent("Mate", "mate@example.org");
        return git.commit().setMessage(message).setAuthor(who).setCommitter(who).call().getName();
    }

    private static int markdownFiles() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT.resolve("seed"))) {
            return (int) files.filter(f -> f.toString().endsWith(".md") && !f.toString().contains("/.git/")).count();
        }
    }

    private static int count(String table) {
        Integer n = jdbc.queryForObject("select count(*) from " + table, Integer.class);
        return n == null ? 0 : n;
    }

    private static int undone() {
        return count("cluster_requests where done_at is null");
    }

    private static int openSearchCount() throws IOException {
        OpenSearchClient client = TestOpenSearch.client();
        client.indices().refresh(r -> r.index(INDEX));
        return (int) client.count(c -> c.index(INDEX)).count();
    }

    /** The events acknowledged to {@code traffic} that were posted after {@code stream} first opened. */
    private static Set<Long> ackedSince(FailoverTraffic traffic, ResumingEventStream stream) {
        long opened = stream.connections.get(0).nanos();
        return traffic.posted.entrySet().stream().filter(e -> e.getValue() > opened).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /**
     * After {@code traffic}'s replica {@code killedPort} was killed at {@code killedNanos}: every MCP call
     * succeeded (at most after its one retry); each stream got every acknowledged event once and in id order (an
     * event whose answer was lost with the replica may be there too), the one on the killed replica by resuming
     * on another with {@code Last-Event-ID}. Prints the figures.
     */
    private static void checkFailover(FailoverTraffic traffic, int killedPort, long killedNanos) {
        assertThat(traffic.calls).as("MCP calls").allSatisfy(c -> assertThat(c.error()).isNull());
        long retried = traffic.calls.stream().filter(FailoverTraffic.Call::retried).count();
        long mcpGap = 0;
        for (int i = 1; i < traffic.calls.size(); i++) {
            mcpGap = Math.max(mcpGap, traffic.calls.get(i).endNanos() - traffic.calls.get(i - 1).endNanos());
        }
        Set<Long> acked = traffic.posted.keySet();
        List<Long> delays = new ArrayList<>();
        String resumed = "";
        for (ResumingEventStream stream : traffic.streams) {
            List<Long> ids = ofRun(stream, traffic.agent).stream().map(ResumingEventStream.Received::id).toList();
            assertThat(ids).as("stream first on port " + stream.connections.get(0).upstream())
                    .doesNotHaveDuplicates().isSorted().containsAll(ackedSince(traffic, stream));
            // an event stored by the replica that died before it answered was not acknowledged, but may be there
            assertThat(ids.stream().filter(id -> !acked.contains(id)).count()).isLessThanOrEqualTo(
                    traffic.postsRefused.get());
            ofRun(stream, traffic.agent).stream().filter(e -> acked.contains(e.id()))
                    .forEach(e -> delays.add((e.nanos() - traffic.posted.get(e.id())) / 1_000_000));
            ResumingEventStream.Connection atKill = stream.connections.stream()
                    .filter(c -> c.nanos() <= killedNanos).reduce((a, b) -> b).orElseThrow();
            if (atKill.upstream() == killedPort && resumed.isEmpty()) {
                ResumingEventStream.Connection again = stream.connections.stream()
                        .filter(c -> c.nanos() > killedNanos && c.status() == 200).findFirst().orElseThrow();
                assertThat(again.upstream()).as("resumed on another replica").isNotEqualTo(killedPort);
                assertThat(again.lastEventId()).as("resumed with Last-Event-ID").isNotNegative();
                long lastBefore = stream.events.stream().filter(e -> e.nanos() <= killedNanos)
                        .mapToLong(ResumingEventStream.Received::nanos).max().orElse(killedNanos);
                long firstAfter = stream.events.stream().filter(e -> e.nanos() > killedNanos)
                        .mapToLong(ResumingEventStream.Received::nanos).min().orElseThrow();
                resumed = "the stream on the killed replica resumed on port " + again.upstream() + " after event #"
                        + again.lastEventId() + " " + (again.nanos() - killedNanos) / 1_000_000 + " ms after the "
                        + "kill; no event for " + (firstAfter - lastBefore) / 1_000_000 + " ms on it";
            }
        }
        assertThat(resumed).as("a stream was on the killed replica").isNotEmpty();
        System.out.println("[cluster] failover through the proxy: MCP " + traffic.calls.size() + " calls, 0 failed, "
                + retried + " retried once, longest time between two answers " + mcpGap / 1_000_000 + " ms; events "
                + acked.size() + " acknowledged, " + traffic.postsRefused.get() + " refused while the replica died, "
                + "on " + traffic.streams.size() + " streams 0 lost, 0 duplicated, post-to-receipt (ms) p50 "
                + percentile(delays, 50) + ", p95 " + percentile(delays, 95) + "; " + resumed);
    }

    /** A request through the proxy with the bearer of {@code token}. */
    private static HttpResponse<String> proxied(String method, String path, String body, Supplier<String> token,
                                                Map<String, String> headers) throws IOException {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(proxy.url() + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token.get())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            r.header("Content-Type", "application/json");
        }
        headers.forEach(r::header);
        try {
            return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** An event of {@code agent} in project poimen with its sequence number. */
    private static String event(String agent, int seq) {
        return JSON.createObjectNode().put("agent_id", agent).put("type", "tool_invoked").set("payload",
                JSON.createObjectNode().put("project", "poimen").put("seq", seq)).toString();
    }

    /** The events {@code stream} received of the agents whose id contains {@code run}. */
    private static List<ResumingEventStream.Received> ofRun(ResumingEventStream stream, String run) {
        return stream.events.stream().filter(e -> e.event().path("agent_id").asText().contains(run)).toList();
    }

    /** The {@code p}th percentile of {@code values} (nearest rank). */
    private static long percentile(List<Long> values, int p) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.max(0, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static void awaitTrue(Duration limit, Callable<Boolean> condition, String what) throws Exception {
        awaitTrue(limit, Duration.ofMillis(50), condition, what);
    }

    private static void awaitTrue(Duration limit, Duration poll, Callable<Boolean> condition, String what)
            throws Exception {
        long end = System.nanoTime() + limit.toNanos();
        while (true) {
            if (Boolean.TRUE.equals(condition.call())) {
                return;
            }
            if (System.nanoTime() > end) {
                StringBuilder logs = new StringBuilder();
                HUBS.forEach(h -> logs.append("\n--- ").append(h).append(" (threads: ").append(h.alive()
                        ? h.dumpThreads() : "gone").append(")\n").append(h.logTail()));
                throw new AssertionError("timed out waiting for: " + what + logs);
            }
            Thread.sleep(poll.toMillis());
        }
    }
}
