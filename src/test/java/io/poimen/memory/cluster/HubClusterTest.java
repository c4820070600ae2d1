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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.nimbusds.jose.JOSEObjectType;
import com.zaxxer.hikari.HikariDataSource;
import io.poimen.memory.grc.WebhookSignature;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
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
import org.springframework.util.FileSystemUtils;

/**
 * Three hub processes on the production profile (OIDC on) sharing one PostgreSQL + pgvector database and one
 * OpenSearch node, each with its own git working copy of one vault remote: one writer, followers that stay
 * current, failover when the writer is killed. The tests run in order on the same three processes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HubClusterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "cluster-webhook-secret";
    private static final String PULLS = "/api/v1/repos/team/vault/pulls";
    private static final String INDEX = "cluster-test";
    private static final String ISSUER = "poimen-cluster";
    private static final int BULK_NOTES = 240;
    private static final Path ROOT = Path.of("target/hub-cluster/" + UUID.randomUUID()).toAbsolutePath();
    private static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    private static final WireMockServer FORGEJO = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    private static final List<HubProcess> HUBS = new ArrayList<>();
    private static HikariDataSource db;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void threeHubs() throws Exception {
        String dbUrl = TestPostgres.freshDatabaseUrl("hub_cluster");
        String openSearch = TestOpenSearch.url();
        OAUTH.start();
        FORGEJO.start();
        forgejoDown();
        seedRemote();
        String token = OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, "rock",
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", List.of("platform-team"),
                "roles", List.of("admin", "editor"), "name", "Rock Lee", "email", "rock@example.org"), 7200)).serialize();
        for (int i = 1; i <= 3; i++) {
            Path dir = ROOT.resolve("hub-" + i);
            Map<String, String> p = new LinkedHashMap<>();
            p.put("spring.profiles.active", "prod");
            p.put("server.address", "127.0.0.1");
            p.put("spring.datasource.url", dbUrl);
            p.put("poimen.opensearch.url", openSearch);
            p.put("poimen.opensearch.index", INDEX);
            p.put("poimen.security.issuer-uri", OAUTH.issuerUrl(ISSUER).toString());
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
            HUBS.add(HubProcess.start("hub-" + i, dir, p, token));
        }
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
        for (HubProcess hub : HUBS) {
            hub.kill();
        }
        if (db != null) {
            db.close();
        }
        OAUTH.shutdown();
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
        awaitTrue(Duration.ofSeconds(20), () -> {
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
     * A 10-turn session whose turns go to the three replicas in turn keeps the same contexts and prefix reuse as the
     * same session on one replica: its previous context is in {@code session_contexts}, not in one process. TF-IDF
     * only, so that no branch timing out on a loaded machine makes two runs of a turn differ.
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
        List<HubProcess> hubs = live();
        List<String> spread = session(questions, i -> hubs.get(i % hubs.size()));
        List<String> single = session(questions, i -> hubs.get(0));
        System.out.println("[cluster] session turns (prefix_reuse context) through " + hubs.size() + " replicas: "
                + spread);
        assertThat(spread).as("turn by turn: prefix_reuse and context").isEqualTo(single);
        assertThat(single.stream().skip(1).mapToDouble(t -> Double.parseDouble(t.split(" ")[0])).max().orElse(0))
                .as("later turns reuse a prefix of the earlier ones").isPositive();
    }

    /** Each turn's {@code prefix_reuse} and context chunk ids, the turn {@code i} asked of {@code hubOf(i)}. */
    private static List<String> session(List<String> questions, java.util.function.IntFunction<HubProcess> hubOf)
            throws IOException {
        String session = "cluster-session-" + UUID.randomUUID();
        List<String> turns = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            String body = JSON.createObjectNode().put("project", "poimen").put("query", questions.get(i))
                    .put("search_method", "tfidf").put("session_id", session).toString();
            HttpResponse<String> r = hubOf.apply(i).postJson("/memory/query", body);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode a = JSON.readTree(r.body());
            assertThat(a.path("degraded").size()).as(a.path("degraded").toString()).isZero();
            turns.add(a.path("context").path("prefix_reuse").asDouble() + " " + a.path("context").path("chunks"));
        }
        return turns;
    }

    @Test
    @Order(4)
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

    @Test
    @Order(5)
    void killingTheWriterInTheMiddleOfAnIngestLetsAnotherFinishItWithEqualCountsEverywhere() throws Exception {
        Map<String, String> notes = new LinkedHashMap<>();
        for (int i = 0; i < BULK_NOTES; i++) {
            notes.put("projects/poimen/bulk/note-" + i + ".md", bulkNote(i));
        }
        String commit = pushToMain(notes, "Bulk notes");
        HubProcess leader = leader();
        int before = count("documents");

        assertThat(webhook(leader, commit).statusCode()).isEqualTo(202);
        awaitTrue(Duration.ofSeconds(60), () -> count("documents") > before + 20, "the ingest under way");
        int atKill = count("documents");
        long killed = System.nanoTime();
        leader.kill();
        HUBS.remove(leader);
        assertThat(atKill).as("killed in the middle").isLessThan(before + BULK_NOTES);

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
    @Order(6)
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
        FileSystemUtils.copyRecursively(Path.of("examples/vault"), seed);
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

    private static void awaitTrue(Duration limit, Callable<Boolean> condition, String what) throws Exception {
        long end = System.nanoTime() + limit.toNanos();
        while (true) {
            if (Boolean.TRUE.equals(condition.call())) {
                return;
            }
            if (System.nanoTime() > end) {
                StringBuilder logs = new StringBuilder();
                HUBS.forEach(h -> logs.append("\n--- ").append(h).append('\n').append(h.logTail()));
                throw new AssertionError("timed out waiting for: " + what + logs);
            }
            Thread.sleep(50);
        }
    }
}
