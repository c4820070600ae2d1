package io.poimen.memory.grc;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.poimen.memory.index.ingest.CountingModelConfig;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.testsupport.ExampleVault;
import io.poimen.memory.testsupport.TestIssuer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import io.poimen.memory.index.ingest.IngestReport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.BeforeEach;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One hub for the GRC and sync tests: OIDC on, against the test issuer, every request of the test's client signed
 * in as {@link #ROCK} with a bearer token (Forgejo's webhook: its signature, no token), so the hub's own resolver
 * and access checks decide; embedded stores (H2 in memory, Lucene in a temp data dir), a real bare git
 * repository on disk as the Forgejo-side remote (seeded with the example vault), the vault working copy cloned from
 * it by the hub at start, and WireMock standing in for Forgejo's API. Timers are slowed down so each test drives
 * syncs itself; the draft retry timer runs fast.
 */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:grc-flow;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false",
        "camel.main.routes-reload-enabled=false",
        "poimen.forgejo.delivery.redeliveries=1",
        "poimen.forgejo.delivery.redelivery-delay=50",
        "poimen.forgejo.delivery.retry-period=300",
        "poimen.forgejo.delivery.backoff-base=200ms",
        "poimen.forgejo.delivery.backoff-max=1s",
        "poimen.webhook.secret=" + GrcTestSupport.SECRET,
        "poimen.security.mode=oidc"})
@Import(CountingModelConfig.class)
public abstract class GrcTestSupport {
    public static final String TOKEN = "forgejo-test-token";
    static final String SECRET = "webhook-test-secret";
    public static final String PULLS = "/api/v1/repos/team/vault/pulls";
    static final String WEBHOOK = "/memory/webhooks/forgejo";
    /** An editor in poimen's allowed groups (not ml-training's), as the claims of {@link #rockToken()} make him. */
    static final Caller ROCK = new Caller("u-rock-1", "Rock Lee", "rock@example.org", List.of("platform-team"),
            List.of("editor"), List.of(), false);
    /** An operator (the admin role): what the sync status shows only to operators is read as one. */
    static final Caller OPERATOR = new Caller("u-ops-1", "Ops", "ops@example.org", List.of("platform-team"),
            List.of("admin"), List.of(), false);
    private static MockOAuth2Server issuer;
    private static String operatorToken;
    static final Path ROOT = Path.of("target/it-grc/" + UUID.randomUUID()).toAbsolutePath();
    static final Path REMOTE = ROOT.resolve("remote.git");
    static final Path VAULT = ROOT.resolve("vault");
    static final WireMockServer FORGEJO = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    static final ObjectMapper JSON = new ObjectMapper();

    private static boolean ingested;

    @Autowired TestRestTemplate http;
    @Autowired ProducerTemplate producer;

    /** The startup ingest (Camel starts after the Spring context in tests, so it is run here, once). */
    @BeforeEach
    void vaultIngestedOnce() {
        synchronized (GrcTestSupport.class) {
            if (!ingested) {
                producer.requestBody("direct:ingest", VAULT, IngestReport.class);
                ingested = true;
            }
        }
    }

    /**
     * Every request of the test's client without a bearer of its own carries Rock's (added once to the context's
     * shared client).
     */
    @BeforeEach
    void signedInAsRock() {
        List<ClientHttpRequestInterceptor> interceptors = http.getRestTemplate().getInterceptors();
        if (interceptors.stream().noneMatch(RockBearer.class::isInstance)) {
            interceptors.add(new RockBearer(rockToken()));
        }
    }

    /** Rock's access token from the test issuer: the claims the hub's resolver reads into {@link #ROCK}. */
    static String rockToken() {
        return token(ROCK);
    }

    private static synchronized String operatorToken() {
        if (operatorToken == null) {
            operatorToken = token(OPERATOR);
        }
        return operatorToken;
    }

    /** An access token from the test issuer whose claims the hub's resolver reads into {@code caller}. */
    static String token(Caller caller) {
        return TestIssuer.token(issuer(), caller.subject(), Map.of("name", caller.name(), "email", caller.email(),
                "groups", caller.groups(), "roles", caller.roles()));
    }

    /** The test issuer, started for the first hub of these tests (the static helpers below do not need it). */
    private static synchronized MockOAuth2Server issuer() {
        if (issuer == null) {
            issuer = TestIssuer.start();
        }
        return issuer;
    }

    /** Adds the bearer to every request without one but Forgejo's webhook, which Forgejo signs instead. */
    private record RockBearer(String token) implements ClientHttpRequestInterceptor {
        @Override
        public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
                throws IOException {
            if (!request.getURI().getPath().equals(WEBHOOK)
                    && !request.getHeaders().containsKey(HttpHeaders.AUTHORIZATION)) {
                request.getHeaders().setBearerAuth(token);
            }
            return execution.execute(request, body);
        }
    }

    @DynamicPropertySource
    static void gitAndForgejo(DynamicPropertyRegistry registry) throws Exception {
        registry.add("poimen.data.dir", () -> ROOT.resolve("data").toString());
        registry.add("poimen.security.issuer-uri", () -> TestIssuer.issuerUrl(issuer()));
        gitRemoteAndForgejo(registry, ROOT, FORGEJO);
    }

    /**
     * Points a hub at a bare repository {@code root/remote.git} (seeded with the example vault on first use) as the
     * vault remote, with the vault working copy {@code root/vault} cloned from it at start, and at {@code forgejo}
     * (started if needed) as Forgejo's API for the repository {@code team/vault}. Sync timers are slowed down so
     * each test drives syncs itself.
     */
    public static synchronized void gitRemoteAndForgejo(DynamicPropertyRegistry registry, Path root,
                                                        WireMockServer forgejo) throws Exception {
        Path remote = root.resolve("remote.git");
        if (!Files.exists(remote)) {
            seedRemote(root);
        }
        if (!forgejo.isRunning()) {
            forgejo.start();
        }
        registry.add("poimen.vault.path", () -> root.resolve("vault").toString());
        registry.add("poimen.git.enabled", () -> "true");
        registry.add("poimen.git.remote", remote::toString);
        registry.add("poimen.git.poll-period", () -> "3600000");
        registry.add("poimen.git.initial-delay", () -> "3600000");
        registry.add("poimen.forgejo.url", forgejo::baseUrl);
        registry.add("poimen.forgejo.token", () -> TOKEN);
        registry.add("poimen.forgejo.owner", () -> "team");
        registry.add("poimen.forgejo.repo", () -> "vault");
    }

    /** Forgejo with no open pull request, answering a create with pull request {@code number}. */
    public static void pullRequestsOpenAs(WireMockServer forgejo, int number) {
        forgejo.stubFor(get(urlPathEqualTo(PULLS)).withQueryParam("state", equalTo("open")).willReturn(okJson("[]")));
        forgejo.stubFor(post(urlPathEqualTo(PULLS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\":" + (100 + number) + ",\"number\":" + number + ",\"state\":\"open\","
                        + "\"merged\":false,\"html_url\":\"http://forgejo.test/team/vault/pulls/" + number + "\","
                        + "\"head\":{\"ref\":\"x\"}}")));
    }

    /** A bare repository {@code root/remote.git} with the example vault committed on main. */
    private static void seedRemote(Path root) throws Exception {
        Path seed = root.resolve("seed");
        Path remote = root.resolve("remote.git");
        ExampleVault.copyTo(seed);
        Git.init().setBare(true).setInitialBranch("main").setDirectory(remote.toFile()).call().close();
        try (Git git = Git.init().setInitialBranch("main").setDirectory(seed.toFile()).call()) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("Example vault").setAuthor(new PersonIdent("Seed", "seed@example.org"))
                    .setCommitter(new PersonIdent("Seed", "seed@example.org")).call();
            git.push().setRemote(remote.toString()).add("main").call();
        }
    }

    /** A fresh clone of the remote to act as someone else (a reviewer merging, a teammate pushing). */
    static Git otherClone() throws Exception {
        Path dir = ROOT.resolve("other-" + UUID.randomUUID());
        return Git.cloneRepository().setURI(REMOTE.toString()).setDirectory(dir.toFile()).setBranch("main").call();
    }

    /** Commits a change in another clone and pushes it to main; returns the new main commit. */
    static String pushToMain(String path, String content, String message) throws Exception {
        try (Git git = otherClone()) {
            Path file = git.getRepository().getWorkTree().toPath().resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
            git.add().addFilepattern(path).call();
            String id = git.commit().setMessage(message).setAuthor(new PersonIdent("Mate", "mate@example.org"))
                    .setCommitter(new PersonIdent("Mate", "mate@example.org")).call().getName();
            git.push().setRemote("origin").add("main").call();
            return id;
        }
    }

    ResponseEntity<String> postJson(String path, String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return http.exchange(path, HttpMethod.POST, new HttpEntity<>(body, headers), String.class);
    }

    ResponseEntity<String> webhook(String event, String delivery, String body, Consumer<HttpHeaders> signing) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set("X-Forgejo-Event", event);
        headers.set("X-Gitea-Event", event);
        headers.set("X-Forgejo-Delivery", delivery);
        headers.set("X-Gitea-Delivery", delivery);
        signing.accept(headers);
        return http.exchange(WEBHOOK, HttpMethod.POST,
                new HttpEntity<>(body.getBytes(StandardCharsets.UTF_8), headers), String.class);
    }

    /** Signed as Forgejo signs: both signature headers carry the hex HMAC of the exact body bytes. */
    static Consumer<HttpHeaders> signed(String body) {
        String signature = WebhookSignature.sign(SECRET, body.getBytes(StandardCharsets.UTF_8));
        return h -> {
            h.set("X-Forgejo-Signature", signature);
            h.set("X-Gitea-Signature", signature);
        };
    }

    /** The sync status as an operator sees it (with the vault-wide counts a non-admin does not get). */
    JsonNode syncStatus() throws IOException {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(operatorToken());
        ResponseEntity<String> r = http.exchange("/memory/sync/status", HttpMethod.GET, new HttpEntity<>(headers),
                String.class);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(200);
        return JSON.readTree(r.getBody());
    }

    JsonNode json(ResponseEntity<String> response) throws IOException {
        return JSON.readTree(response.getBody());
    }

    /** Waits until the hub's sync has reached {@code commit}. */
    void awaitSyncedTo(String commit) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> commit.equals(syncStatus().path("last_commit").asText(null)));
    }

    void awaitRuns(long runs) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> syncStatus().path("runs").asLong() >= runs);
    }

    /** A push event shaped like Forgejo's. */
    static String pushPayload(String ref, String before, String after) {
        return """
                {"ref":"%s","before":"%s","after":"%s",
                 "compare_url":"http://forgejo.test/team/vault/compare/%s...%s",
                 "commits":[{"id":"%s","message":"Update notes\\n","url":"http://forgejo.test/team/vault/commit/%s",
                   "author":{"name":"Mate","email":"mate@example.org","username":"mate"},
                   "committer":{"name":"Mate","email":"mate@example.org","username":"mate"},
                   "verification":null,"timestamp":"2025-05-01T10:00:00Z","added":[],"removed":[],"modified":[]}],
                 "total_commits":1,"head_commit":null,
                 "repository":%s,"pusher":%s,"sender":%s}"""
                .formatted(ref, before, after, before, after, after, after, repository(), user("mate"),
                        user("mate"));
    }

    /** A pull_request event shaped like Forgejo's. */
    static String pullRequestPayload(String action, int number, boolean merged, String head, String mergeSha) {
        return """
                {"action":"%s","number":%d,
                 "pull_request":{"id":%d,"url":"http://forgejo.test/team/vault/pulls/%d","number":%d,
                   "user":%s,"title":"Edit","body":"","labels":[],"milestone":null,"assignee":null,"assignees":null,
                   "state":"closed","is_locked":false,"comments":0,
                   "html_url":"http://forgejo.test/team/vault/pulls/%d",
                   "diff_url":"http://forgejo.test/team/vault/pulls/%d.diff",
                   "patch_url":"http://forgejo.test/team/vault/pulls/%d.patch",
                   "mergeable":true,"merged":%s,"merged_at":%s,"merge_commit_sha":%s,"merged_by":%s,
                   "base":{"label":"main","ref":"main","sha":"0000000000000000000000000000000000000000","repo_id":1,
                     "repo":%s},
                   "head":{"label":"%s","ref":"%s","sha":"1111111111111111111111111111111111111111","repo_id":1,
                     "repo":%s},
                   "merge_base":"0000000000000000000000000000000000000000","due_date":null,
                   "created_at":"2025-05-01T09:00:00Z","updated_at":"2025-05-01T10:00:00Z",
                   "closed_at":"2025-05-01T10:00:00Z"},
                 "requested_reviewer":null,"repository":%s,"sender":%s,"commit_id":"","review":null}"""
                .formatted(action, number, 100 + number, number, number, user("rock"), number, number, number,
                        merged, merged ? "\"2025-05-01T10:00:00Z\"" : "null",
                        merged ? "\"" + mergeSha + "\"" : "null", merged ? user("lead") : "null",
                        repository(), head, head, repository(), repository(), user("lead"));
    }

    private static String repository() {
        return """
                {"id":1,"owner":%s,"name":"vault","full_name":"team/vault","description":"","empty":false,
                 "private":true,"fork":false,"template":false,"parent":null,"mirror":false,"size":100,
                 "html_url":"http://forgejo.test/team/vault","ssh_url":"git@forgejo.test:team/vault.git",
                 "clone_url":"http://forgejo.test/team/vault.git","website":"","stars_count":0,"forks_count":0,
                 "watchers_count":1,"open_issues_count":0,"open_pr_counter":1,"release_counter":0,
                 "default_branch":"main","archived":false,"created_at":"2025-01-01T00:00:00Z",
                 "updated_at":"2025-05-01T10:00:00Z"}""".formatted(user("team"));
    }

    private static String user(String login) {
        return """
                {"id":%d,"login":"%s","login_name":"","full_name":"","email":"%s@noreply.forgejo.test",
                 "avatar_url":"http://forgejo.test/avatars/%s","language":"","is_admin":false,
                 "created":"2025-01-01T00:00:00Z","restricted":false,"active":true,"prohibit_login":false,
                 "username":"%s"}""".formatted(Math.abs(login.hashCode() % 1000), login, login, login, login);
    }
}
