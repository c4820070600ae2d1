package io.poimen.memory.security;

import io.poimen.memory.security.auth.TraceIds;
import io.poimen.memory.security.policy.PathMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.grc.GrcTestSupport;
import io.poimen.memory.grc.WebhookSignature;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.HostileWebhookBodies;
import io.poimen.memory.testsupport.TestIssuer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The surfaces besides the REST API in oidc mode, with the real resolver and a real issuer (mock-oauth2-server):
 * the web UI's files and login settings are public, the agent stream and the MCP transport authenticate the bearer
 * of their own request and act as its caller, and the Forgejo webhook is authenticated by its HMAC alone.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-oidc-surfaces/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:oidc-surfaces;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S",
        "poimen.ui.client-id=poimen-web",
        "poimen.ui.scopes=openid poimen-memory",
        "poimen.webhook.secret=" + OidcSurfacesHttpTest.SECRET})
class OidcSurfacesHttpTest {
    static final String SECRET = "surfaces-webhook-secret";
    static final Path ROOT = Path.of("target/it-oidc-surfaces/git-" + UUID.randomUUID()).toAbsolutePath();
    static final WireMockServer FORGEJO = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    static final MockOAuth2Server ISSUER = TestIssuer.start();
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort int port;
    @Autowired JdbcTemplate jdbc;

    @DynamicPropertySource
    static void issuerGitAndForgejo(DynamicPropertyRegistry registry) throws Exception {
        registry.add("poimen.security.issuer-uri", () -> TestIssuer.issuerUrl(ISSUER));
        GrcTestSupport.gitRemoteAndForgejo(registry, ROOT, FORGEJO);
    }

    @AfterAll
    static void stop() {
        ISSUER.shutdown();
        FORGEJO.stop();
    }

    static String charlie() {
        return TestIssuer.token(ISSUER, "charlie", List.of("platform-team", "devops-team"), List.of("viewer"));
    }

    static String alice() {
        return TestIssuer.token(ISSUER, "alice", List.of("data-team"), List.of("viewer"));
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base() + path));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postJson(String path, String token, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theUiFilesAndItsLoginSettingsArePublicWithAContentSecurityPolicyAndTheApiIsNot() throws Exception {
        for (String path : new String[] {"/", "/index.html", "/js/app.js", "/js/auth.js", "/css/app.css",
                "/login-callback.html", "/js/login-callback.js"}) {
            HttpResponse<String> r = get(path, null);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            String csp = r.headers().firstValue("Content-Security-Policy").orElse("");
            assertThat(csp).as(path).contains("script-src 'self'", "img-src 'self' data:", "object-src 'none'",
                    "connect-src 'self' " + ISSUER.baseUrl().toString().replaceAll("/$", ""));
            assertThat(csp).as(path).doesNotContain("unsafe-inline", "https:");
        }
        assertThat(get("/", null).body()).doesNotContainPattern("<script(?![^>]*\\ssrc=)[^>]*>");
        JsonNode config = JSON.readTree(get("/memory/ui/config", null).body());
        assertThat(config.path("auth").asText()).isEqualTo("oidc");
        assertThat(config.path("issuer").asText()).isEqualTo(TestIssuer.issuerUrl(ISSUER));
        assertThat(config.path("client_id").asText()).isEqualTo("poimen-web");
        assertThat(config.path("scopes").asText()).isEqualTo("openid poimen-memory");
        assertThat(config.path("remote_images").asBoolean()).isFalse();
        HttpResponse<String> api = get("/memory/projects", null);
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.headers().firstValue("Content-Security-Policy")).isPresent();
    }

    @Test
    void everyReadSurfaceIncludingTheStreamAnswers401WithoutABearer() throws Exception {
        for (String path : new String[] {"/memory/projects", "/memory/skills", "/memory/vault?project=poimen",
                "/memory/vault/file?path=projects/poimen/index.md", "/memory/graph/reachable?project=poimen",
                "/memory/graph/backlinks?path=projects/poimen/index.md", "/memory/agents/logs",
                "/memory/agents/stream"}) {
            HttpResponse<String> r = get(path, null);
            assertThat(r.statusCode()).as(path).isEqualTo(401);
            assertThat(JSON.readTree(r.body()).path("error").asText()).as(path).isEqualTo("unauthorized");
        }
        HttpResponse<String> bad = get("/memory/agents/stream", "not-a-jwt");
        assertThat(bad.statusCode()).isEqualTo(401);
    }

    @Test
    void theAgentStreamAcceptsAValidBearerAndShowsARetrievalLive() throws Exception {
        String token = charlie();
        String session = "stream-" + UUID.randomUUID();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = HTTP.sendAsync(
                HttpRequest.newBuilder(URI.create(base() + "/memory/agents/stream?session_id=" + session))
                        .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofLines());
        HttpResponse<Stream<String>> open = stream.get(30, TimeUnit.SECONDS);
        try {
            assertThat(open.statusCode()).isEqualTo(200);
            assertThat(open.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
            Thread reader = new Thread(() -> open.body().forEach(lines::add), "sse-reader");
            reader.setDaemon(true);
            reader.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> lines.stream().anyMatch(l -> l.contains("connected")));
            HttpResponse<String> q = postJson("/memory/query", token, """
                    {"project":"poimen","query":"pod keeps restarting","top_k":3,
                     "agent_id":"stream-bot","session_id":"%s"}""".formatted(session));
            assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> lines.stream()
                    .anyMatch(l -> l.startsWith("data:") && l.contains("memory_retrieved") && l.contains(session)));
        } finally {
            open.body().close();
        }
    }

    @Test
    void mcpToolsActAsTheCallerOfTheBearerAndACallerWithoutAccessGetsNothing() throws Exception {
        McpSchema.CallToolRequest search = new McpSchema.CallToolRequest("search_memory",
                Map.of("project", "poimen", "query", "pod keeps restarting with CrashLoopBackOff", "top_k", 3));
        McpSchema.CallToolRequest read = new McpSchema.CallToolRequest("read_note",
                Map.of("path", "projects/poimen/tools/kubectl.md"));
        try (McpSyncClient allowed = McpClients.connect(base(), charlie());
             McpSyncClient denied = McpClients.connect(base(), alice())) {
            McpSchema.CallToolResult found = allowed.callTool(search);
            assertThat(found.isError()).as(McpClients.text(found)).isFalse();
            assertThat(JSON.readTree(McpClients.text(found)).path("results").findValuesAsText("path"))
                    .isNotEmpty().contains("projects/poimen/debugging/pod-crashes.md");
            McpSchema.CallToolResult note = allowed.callTool(read);
            assertThat(note.isError()).as(McpClients.text(note)).isFalse();
            assertThat(McpClients.text(note)).contains("kubectl");

            McpSchema.CallToolResult none = denied.callTool(search);
            assertThat(none.isError()).isTrue();
            assertThat(McpClients.text(none)).contains("403").doesNotContain("pod-crashes", "CrashLoopBackOff");
            McpSchema.CallToolResult closed = denied.callTool(read);
            assertThat(closed.isError()).isTrue();
            assertThat(McpClients.text(closed)).doesNotContain("kubectl describe", "kubectl logs");
        }
        // the audit rows of the tool calls name the token's subject
        assertThat(jdbc.queryForList("select decision from rbac_audit_log where user_id = 'alice' "
                + "and resource_name = 'poimen'", String.class)).contains("deny");
        assertThat(jdbc.queryForList("select decision from rbac_audit_log where user_id = 'charlie' "
                + "and resource_name = 'poimen'", String.class)).contains("allow");
        assertThatThrownBy(() -> McpClients.connect(base(), null)).as("no bearer, no MCP session");
        HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",
                         "capabilities":{},"clientInfo":{"name":"anonymous","version":"1"}}}""")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(anonymous.body()).path("error").asText()).isEqualTo("unauthorized");
    }

    long auditRows() {
        return jdbc.queryForObject("select count(*) from rbac_audit_log", Long.class);
    }

    /** Sends; every audit row the request wrote carries its response's X-Trace-Id, and it wrote at least one. */
    HttpResponse<String> audited(HttpRequest request) throws Exception {
        long before = auditRows();
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        String trace = r.headers().firstValue(TraceIds.RESPONSE_HEADER).orElseThrow();
        assertThat(jdbc.queryForObject("select count(*) from rbac_audit_log where trace_id = ?", Long.class, trace))
                .as("audit rows of " + request.uri() + " under its X-Trace-Id").isPositive()
                .isEqualTo(auditRows() - before);
        return r;
    }

    @Test
    void grcDecisionsAreAuditedUnderTheResponseTraceIdNeverAClientId() throws Exception {
        GrcTestSupport.pullRequestsOpenAs(FORGEJO, 77);
        String editor = TestIssuer.token(ISSUER, "rock", List.of("platform-team"), List.of("editor"));
        String note = "projects/poimen/runbooks/node-drain.md";
        java.util.function.BiFunction<String, String, HttpRequest> draft = (token, path) -> HttpRequest.newBuilder(
                        URI.create(base() + "/memory/grc/draft")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).header("X-Request-Id", "client-chosen-id")
                .POST(HttpRequest.BodyPublishers.ofString("{\"document_path\":\"" + path
                        + "\",\"content\":\"# Drain\\n\\nCordon first.\\n\",\"message\":\"Drain order\"}"))
                .build();
        HttpResponse<String> denied = audited(draft.apply(alice(), note));
        assertThat(denied.statusCode()).as(denied.body()).isEqualTo(403);
        HttpResponse<String> refused = audited(draft.apply(charlie(), note));
        assertThat(refused.statusCode()).as("a viewer may not write").isEqualTo(403);
        HttpResponse<String> stored = audited(draft.apply(editor, note));
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201); // Forgejo answers: delivered at once
        String id = JSON.readTree(stored.body()).path("draft_id").asText();
        // another caller without write access is told what an unknown id is told (and that decision is audited)
        HttpResponse<String> other = audited(HttpRequest.newBuilder(URI.create(base() + "/memory/grc/drafts/" + id))
                .header("Authorization", "Bearer " + charlie()).build());
        HttpResponse<String> unknown = get("/memory/grc/drafts/" + UUID.randomUUID(), charlie());
        assertThat(other.statusCode()).isEqualTo(404).isEqualTo(unknown.statusCode());
        assertThat(other.body()).doesNotContain(note, "rock", "Cordon");
        assertThat(jdbc.queryForObject("select count(*) from rbac_audit_log where trace_id = 'client-chosen-id'",
                Long.class)).isZero();
    }

    @Test
    void anotherEditorSeesADraftWithoutTheNotesTheAuthorsMessageNamesThatTheEditorMayNotRead() throws Exception {
        GrcTestSupport.pullRequestsOpenAs(FORGEJO, 78);
        String author = TestIssuer.token(ISSUER, "dana", List.of("platform-team", "ml-team"), List.of("editor"));
        String reviewer = TestIssuer.token(ISSUER, "eli", List.of("platform-team"), List.of("editor"));
        String denied = "projects/ml-training/runbooks/gpu-node.md";
        HttpResponse<String> stored = postJson("/memory/grc/draft", author, "{\"document_path\":"
                + "\"projects/poimen/runbooks/node-drain.md\",\"content\":\"# Drain\\n\\nCordon, then drain.\\n\","
                + "\"message\":\"Drain order as in " + denied + " first\"}");
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201); // Forgejo answers: delivered at once
        String id = JSON.readTree(stored.body()).path("draft_id").asText();
        JsonNode own = JSON.readTree(get("/memory/grc/drafts/" + id, author).body());
        assertThat(own.path("message").asText()).isEqualTo("Drain order as in " + denied + " first");
        HttpResponse<String> other = get("/memory/grc/drafts/" + id, reviewer);
        assertThat(other.statusCode()).as(other.body()).isEqualTo(200);
        assertThat(other.body()).doesNotContain(denied, "gpu-node");
        assertThat(JSON.readTree(other.body()).path("message").asText())
                .isEqualTo("Drain order as in " + PathMentions.HIDDEN + " first");
    }

    @Test
    void aDraftIsToldOfACaseClashOrAFileOnItsPathOnlyWhereTheEditorMayReadAndAnUnreadableTargetGetsNoReason()
            throws Exception {
        GrcTestSupport.pullRequestsOpenAs(FORGEJO, 79);
        String editor = TestIssuer.token(ISSUER, "rock", List.of("platform-team"), List.of("editor"));
        Path vault = ROOT.resolve("vault");
        Path hr = Files.createDirectories(vault.resolve("shared/hr"));
        Files.writeString(hr.resolve("_access.yaml"), "access_level: private\nowner_group: hr-team\n");
        Files.writeString(hr.resolve("salaries.md"), "# Salaries\n");
        java.util.function.Function<String, String> body = path -> "{\"document_path\":\"" + path
                + "\",\"content\":\"# New\\n\",\"message\":\"Add " + path + "\"}";
        try {
            // a clash with a folder the editor may not read is not refused: the same answer as no clash at all
            HttpResponse<String> clash = postJson("/memory/grc/draft", editor, body.apply("shared/HR/x.md"));
            HttpResponse<String> none = postJson("/memory/grc/draft", editor, body.apply("shared/HX/x.md"));
            assertThat(clash.statusCode()).as(clash.body()).isIn(201, 202).isEqualTo(none.statusCode());
            assertThat(clash.body()).doesNotContain("shared/hr", "case_clash");
            assertThat(fieldNames(clash)).isEqualTo(fieldNames(none));
            // with one the editor may read, the clash is refused and named
            HttpResponse<String> readable = postJson("/memory/grc/draft", editor, body.apply("shared/Concepts/x.md"));
            assertThat(readable.statusCode()).as(readable.body()).isEqualTo(409);
            assertThat(JSON.readTree(readable.body()).path("error").asText()).isEqualTo("case_clash");
            assertThat(readable.body()).contains("shared/concepts");
            // a path under a file can never be written
            HttpResponse<String> under = postJson("/memory/grc/draft", editor,
                    body.apply("projects/poimen/index.md/x.md"));
            assertThat(under.statusCode()).as(under.body()).isEqualTo(409);
            assertThat(JSON.readTree(under.body()).path("error").asText()).isEqualTo("path_under_file");
            // a note named like a policy file is never a note
            HttpResponse<String> policyName = postJson("/memory/grc/draft", editor,
                    body.apply("shared/concepts/_access.yaml.md"));
            assertThat(policyName.statusCode()).as(policyName.body()).isEqualTo(400);
            // a target the editor may not read: one 403 for an existing folder and a missing project, no reason
            HttpResponse<String> denied = postJson("/memory/grc/draft", editor, body.apply("shared/hr/y.md"));
            HttpResponse<String> ml = postJson("/memory/grc/draft", editor,
                    body.apply("projects/ml-training/y.md"));
            HttpResponse<String> missing = postJson("/memory/grc/draft", editor,
                    body.apply("projects/no-such-project/y.md"));
            assertThat(denied.statusCode()).as(denied.body()).isEqualTo(403);
            assertThat(denied.body()).isEqualTo("{\"error\":\"forbidden\",\"message\":"
                    + "\"write access to shared hr denied\"}");
            assertThat(ml.body().replace("ml-training", "P")).isEqualTo(missing.body().replace("no-such-project", "P"));
            assertThat(ml.body()).doesNotContain("reason", "not_in", "default");
            // a viewer who may read the note is told why not
            HttpResponse<String> viewer = postJson("/memory/grc/draft", charlie(),
                    body.apply("projects/poimen/runbooks/node-drain.md"));
            assertThat(JSON.readTree(viewer.body()).path("reason").asText())
                    .isEqualTo("role_requirement_failed: need editor");
        } finally {
            org.springframework.util.FileSystemUtils.deleteRecursively(hr);
        }
    }

    static List<String> fieldNames(HttpResponse<String> r) throws Exception {
        List<String> names = new java.util.ArrayList<>();
        JSON.readTree(r.body()).fieldNames().forEachRemaining(names::add);
        return names;
    }

    // --- the webhook: no bearer, its signature is the authentication

    String remoteHead() throws Exception {
        try (Git remote = Git.open(ROOT.resolve("remote.git").toFile())) {
            return remote.getRepository().resolve("refs/heads/main").getName();
        }
    }

    String vaultHead() throws Exception {
        try (Git vault = Git.open(ROOT.resolve("vault").toFile())) {
            return vault.getRepository().resolve("HEAD").getName();
        }
    }

    /** A teammate's commit on main in the remote (as a merge in Forgejo would make); returns its id. */
    String pushToMain(String path, String content) throws Exception {
        Path dir = ROOT.resolve("mate-" + UUID.randomUUID());
        try (Git git = Git.cloneRepository().setURI(ROOT.resolve("remote.git").toString()).setDirectory(dir.toFile())
                .setBranch("main").call()) {
            Path file = dir.resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
            git.add().addFilepattern(path).call();
            PersonIdent mate = new PersonIdent("Mate", "mate@example.org");
            String id = git.commit().setMessage("Add " + path).setAuthor(mate).setCommitter(mate).call().getName();
            git.push().setRemote("origin").add("main").call();
            return id;
        }
    }

    HttpResponse<String> webhook(String delivery, String body, String signature, String authorization)
            throws Exception {
        return webhook("push", delivery, body, signature, authorization);
    }

    HttpResponse<String> webhook(String event, String delivery, String body, String signature, String authorization)
            throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base() + "/memory/webhooks/forgejo"))
                .header("Content-Type", "application/json").header("X-Forgejo-Event", event)
                .header("X-Forgejo-Delivery", delivery)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (signature != null) {
            r.header("X-Forgejo-Signature", signature);
        }
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String push(String after) {
        return "{\"ref\":\"refs/heads/main\",\"before\":\"" + "0".repeat(40) + "\",\"after\":\"" + after + "\"}";
    }

    record State(String vaultHead, String answer, long drafts, long deliveries, long syncRequests) {
    }

    State state(String token) throws Exception {
        HttpResponse<String> q = postJson("/memory/query", token,
                "{\"project\":\"poimen\",\"query\":\"zebrafish quarantine protocol\",\"search_method\":\"lexical\"}");
        JsonNode sync = JSON.readTree(get("/memory/sync/status", token).body());
        return new State(vaultHead(), JSON.readTree(q.body()).path("results").findValuesAsText("path").toString(),
                jdbc.queryForObject("select count(*) from grc_drafts", Long.class),
                jdbc.queryForObject("select count(*) from webhook_deliveries", Long.class),
                sync.path("requests").asLong());
    }

    @Test
    void theWebhookIsAuthenticatedByItsSignatureAloneAndARejectionChangesNothing() throws Exception {
        String token = charlie();
        String commit = pushToMain("projects/poimen/runbooks/zebrafish.md",
                "# Zebrafish\n\nThe zebrafish quarantine protocol: isolate the node, drain it, then cordon.\n");
        String body = push(commit);
        State before = state(token);
        assertThat(before.answer()).doesNotContain("zebrafish");

        String wrong = WebhookSignature.sign("not-the-secret", body.getBytes(StandardCharsets.UTF_8));
        String malformed = "{\"ref\": \"refs/heads/main\", \"after\": ";
        Map<String, HttpResponse<String>> refused = new java.util.LinkedHashMap<>();
        refused.put("missing signature", webhook(UUID.randomUUID().toString(), body, null, null));
        refused.put("wrong signature", webhook(UUID.randomUUID().toString(), body, wrong, null));
        refused.put("a valid bearer but no signature", webhook(UUID.randomUUID().toString(), body, null,
                "Bearer " + token));
        refused.put("signature of another body", webhook(UUID.randomUUID().toString(), body,
                WebhookSignature.sign(SECRET, push("1".repeat(40)).getBytes(StandardCharsets.UTF_8)), null));
        for (Map.Entry<String, HttpResponse<String>> r : refused.entrySet()) {
            assertThat(r.getValue().statusCode()).as(r.getKey()).isEqualTo(401);
            assertThat(r.getValue().headers().firstValue("Content-Type").orElse("")).as(r.getKey())
                    .contains("application/json");
            assertThat(JSON.readTree(r.getValue().body()).path("error").asText()).as(r.getKey())
                    .isEqualTo("unauthorized");
        }
        HttpResponse<String> bad = webhook(UUID.randomUUID().toString(), malformed,
                WebhookSignature.sign(SECRET, malformed.getBytes(StandardCharsets.UTF_8)), null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).path("error").asText()).isEqualTo("bad_request");
        // a sync is asked for by a row (cluster_requests, the state's sync requests) written before the webhook
        // answers, and only such a row makes the writer pull: the state right after the answers is the final one
        assertThat(state(token)).as("no rejection touched git, the index, drafts or deliveries").isEqualTo(before);

        String delivery = UUID.randomUUID().toString();
        String signature = WebhookSignature.sign(SECRET, body.getBytes(StandardCharsets.UTF_8));
        // a stray Authorization header (Forgejo can send one) is not what authenticates it, and does not hurt
        HttpResponse<String> accepted = webhook(delivery, body, signature, "Bearer not-a-jwt");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(JSON.readTree(accepted.body()).path("status").asText()).isEqualTo("sync_requested");
        await().atMost(Duration.ofSeconds(30)).until(() -> commit.equals(vaultHead()));
        await().atMost(Duration.ofSeconds(30)).until(() -> state(token).answer().contains("zebrafish"));
        State synced = state(token);
        // the sync status names the changed note to a caller who may read it, and not to one who may not
        String zebrafish = "projects/poimen/runbooks/zebrafish.md";
        assertThat(JSON.readTree(get("/memory/sync/status", token).body()).path("files_changed")
                .findValuesAsText("path")).contains(zebrafish);
        HttpResponse<String> outsider = get("/memory/sync/status", alice());
        assertThat(outsider.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(outsider.body()).path("last_commit").asText()).isEqualTo(commit);
        assertThat(outsider.body()).doesNotContain(zebrafish, "zebrafish");

        HttpResponse<String> replay = webhook(delivery, body, signature, null);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(replay.body()).path("status").asText()).isEqualTo("duplicate");
        assertThat(state(token)).as("the replay was a no-op: no sync asked for, no delivery recorded").isEqualTo(synced);
        assertThat(remoteHead()).isEqualTo(commit);

        // the captured body under a new delivery id: its commit was handled, so it is a duplicate as well
        HttpResponse<String> recaptured = webhook(UUID.randomUUID().toString(), body, signature, null);
        assertThat(recaptured.statusCode()).as(recaptured.body()).isEqualTo(200);
        assertThat(JSON.readTree(recaptured.body()).path("status").asText()).isEqualTo("duplicate");
        assertThat(state(token).syncRequests()).as("no sync asked for again").isEqualTo(synced.syncRequests());
    }

    @Test
    void signedHostileBodiesReachTheParserNo5xxAndEverySyncAskedForIsOneTheAnswerAnnounced() throws Exception {
        String token = charlie();
        long seed = 20261205L;
        HostileWebhookBodies bodies = new HostileWebhookBodies(seed);
        long syncsBefore = state(token).syncRequests();
        int announced = 0;
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < 400; i++) {
            HostileWebhookBodies.Delivery d = bodies.next();
            HttpResponse<String> r = webhook(d.event(), UUID.randomUUID().toString(), d.body(),
                    WebhookSignature.sign(SECRET, d.body().getBytes(StandardCharsets.UTF_8)), null);
            String where = "seed " + seed + " #" + i + " " + d.event() + " "
                    + d.body().substring(0, Math.min(200, d.body().length()));
            statuses.merge(r.statusCode(), 1, Integer::sum);
            assertThat(r.statusCode()).as(where).isIn(200, 202, 400);
            JsonNode answer = JSON.readTree(r.body());
            if (r.statusCode() == 400) {
                assertThat(answer.path("error").asText()).as(where).isEqualTo("bad_request");
                assertThat(answer.path("message").asText()).as(where).isNotBlank();
            } else {
                // each accepted answer has its one status: 202 sync_requested or ignored, 200 duplicate
                String status = answer.path("status").asText();
                assertThat(r.statusCode()).as(where + ": " + status).isEqualTo(switch (status) {
                    case "sync_requested", "ignored" -> 202;
                    case "duplicate" -> 200;
                    default -> -1;
                });
                announced += status.equals("sync_requested") ? 1 : 0;
            }
        }
        System.out.println("signed hostile webhook bodies, answers by status: " + statuses);
        assertThat(statuses).as("the bodies reach the parser: refusals and accepted events").containsKeys(400, 202);
        // a sync is asked for by a row written before the answer: exactly the announced ones, nothing more
        assertThat(state(token).syncRequests() - syncsBefore).isEqualTo(announced);
    }
}
