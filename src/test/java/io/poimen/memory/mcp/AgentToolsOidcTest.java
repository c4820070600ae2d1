package io.poimen.memory.mcp;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.nimbusds.jose.JOSEObjectType;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.grc.GrcTestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The MCP tools beyond reading and session-stable contexts in oidc mode: tokens from a real issuer
 * (mock-oauth2-server), the example vault's policies, edits through review against a real git remote and Forgejo's
 * API on WireMock.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "spring.datasource.url=jdbc:h2:mem:agent-tools-oidc;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.session.stats-flush-ms=200"})
@AutoConfigureObservability
class AgentToolsOidcTest {
    static final String ISSUER = "poimen-test";
    static final String NOTE = "projects/poimen/runbooks/node-drain.md";
    static final Path ROOT = Path.of("target/it-agent-tools/" + UUID.randomUUID()).toAbsolutePath();
    static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    static final WireMockServer FORGEJO = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort int port;
    @Autowired JdbcTemplate jdbc;

    @DynamicPropertySource
    static void issuerGitAndForgejo(DynamicPropertyRegistry registry) throws Exception {
        OAUTH.start();
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        registry.add("poimen.data.dir", () -> ROOT.resolve("data").toString());
        GrcTestSupport.gitRemoteAndForgejo(registry, ROOT, FORGEJO);
    }

    @AfterAll
    static void stop() {
        OAUTH.shutdown();
        FORGEJO.stop();
    }

    static String token(String sub, List<String> groups, List<String> roles) {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, sub,
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", groups, "roles", roles),
                3600)).serialize();
    }

    static String editor() {
        return token("rock", List.of("platform-team"), List.of("editor"));
    }

    static String viewer() {
        return token("charlie", List.of("platform-team", "devops-team"), List.of("viewer"));
    }

    static String outsider() {
        return token("alice", List.of("data-team"), List.of("viewer"));
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    static JsonNode body(McpSchema.CallToolResult r) throws Exception {
        assertThat(r.isError()).as(McpClients.text(r)).isFalse();
        return JSON.readTree(McpClients.text(r));
    }

    HttpResponse<String> query(String token, String sessionId, String text) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/memory/query"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(
                        Map.of("project", "poimen", "query", text, "session_id", sessionId)))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String token, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Authorization", "Bearer " + token)
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anEditorsProposalBecomesAPullRequestAndAViewerIsRefusedWithoutADraft() throws Exception {
        FORGEJO.resetAll();
        GrcTestSupport.pullRequestsOpenAs(FORGEJO, 23);
        String before = Files.readString(ROOT.resolve("vault").resolve(NOTE));
        Map<String, Object> edit = Map.of("path", NOTE, "content", before + "\nCordon first, then drain.\n",
                "message", "Drain order");
        long drafts = jdbc.queryForObject("select count(*) from grc_drafts", Long.class);

        try (McpSyncClient viewer = McpClients.connect(base(), viewer());
             McpSyncClient outsider = McpClients.connect(base(), outsider())) {
            McpSchema.CallToolResult refused = call(viewer, "propose_edit", edit);
            assertThat(refused.isError()).isTrue();
            assertThat(McpClients.text(refused)).contains("refused, no draft was made", "403");
            // a caller who may not read the project is refused the same for an existing note and a new one
            String newNote = "projects/poimen/runbooks/no-such-note.md";
            McpSchema.CallToolResult onExisting = call(outsider, "propose_edit", edit);
            McpSchema.CallToolResult onNew = call(outsider, "propose_edit", Map.of("path", newNote,
                    "content", "# New\n", "message", "Drain order"));
            assertThat(McpClients.text(onExisting)).contains("refused, no draft was made", "403")
                    .isEqualTo(McpClients.text(onNew).replace(newNote, NOTE)).doesNotContain("Cordon");
        }
        assertThat(jdbc.queryForObject("select count(*) from grc_drafts", Long.class)).isEqualTo(drafts);
        FORGEJO.verify(0, postRequestedFor(urlPathEqualTo(GrcTestSupport.PULLS)));

        try (McpSyncClient editor = McpClients.connect(base(), editor())) {
            JsonNode proposed = body(call(editor, "propose_edit", edit));
            assertThat(proposed.path("pr_url").asText()).isEqualTo("http://forgejo.test/team/vault/pulls/23");
            String id = proposed.path("draft_id").asText();
            assertThat(jdbc.queryForObject("select user_subject from grc_drafts where id = ?", String.class, id))
                    .isEqualTo("rock");
            JsonNode status = body(call(editor, "draft_status", Map.of("draft_id", id)));
            assertThat(status.path("status").asText()).isEqualTo("open");
            assertThat(status.path("pr_url").asText()).endsWith("/pulls/23");
            try (McpSyncClient outsider = McpClients.connect(base(), outsider())) {
                McpSchema.CallToolResult other = call(outsider, "draft_status", Map.of("draft_id", id));
                assertThat(other.isError()).as("another caller without write access").isTrue();
                String unknown = UUID.randomUUID().toString();
                McpSchema.CallToolResult missing = call(outsider, "draft_status", Map.of("draft_id", unknown));
                assertThat(McpClients.text(other)).as("denied answers as missing").contains("404")
                        .isEqualTo(McpClients.text(missing).replace(unknown, id))
                        .doesNotContain(NOTE, "rock", "pulls/23");
            }
        }
        FORGEJO.verify(1, postRequestedFor(urlPathEqualTo(GrcTestSupport.PULLS)));
        assertThat(Files.readString(ROOT.resolve("vault").resolve(NOTE))).isEqualTo(before);
    }

    @Test
    void readingToolsOnlyShowNotesTheCallerMayRead() throws Exception {
        try (McpSyncClient outsider = McpClients.connect(base(), outsider());
             McpSyncClient viewer = McpClients.connect(base(), viewer())) {
            McpSchema.CallToolResult denied = call(outsider, "build_context", Map.of("path", NOTE));
            assertThat(denied.isError()).isTrue();
            String missingNote = "projects/poimen/runbooks/no-such-note.md";
            McpSchema.CallToolResult missing = call(outsider, "build_context", Map.of("path", missingNote));
            assertThat(McpClients.text(denied)).as("denied answers as missing").contains("404")
                    .isEqualTo(McpClients.text(missing).replace(missingNote, NOTE));

            String shared = "shared/concepts/gitops.md";
            List<String> seenByViewer = paths(body(call(viewer, "build_context",
                    Map.of("path", shared, "budget_tokens", 50000))).path("notes"), "path");
            assertThat(seenByViewer).contains("projects/poimen/tools/helm.md");
            JsonNode outsiders = body(call(outsider, "build_context", Map.of("path", shared, "budget_tokens", 50000)));
            assertThat(paths(outsiders.path("notes"), "path")).isNotEmpty().contains(shared)
                    .noneMatch(p -> p.startsWith("projects/poimen/"));
            assertThat(outsiders.toString()).doesNotContain("projects/poimen/");

            Map<String, Object> since = Map.of("since", "2000-01-01T00:00:00Z", "limit", 500);
            assertThat(paths(body(call(viewer, "recent_changes", since)).path("changes"), "path"))
                    .contains(NOTE);
            List<String> outsiderChanges = paths(body(call(outsider, "recent_changes", since)).path("changes"),
                    "path");
            assertThat(outsiderChanges).contains("shared/concepts/gitops.md")
                    .noneMatch(p -> p.startsWith("projects/poimen/") || p.startsWith("projects/ml-training/"));
        }
        assertThatThrownBy(() -> McpClients.connect(base(), null)).as("no token, no MCP session");
    }

    @Test
    void sessionContextsBelongToTheCallerAndTheProjectFiguresMove() throws Exception {
        String session = "agent-session-" + UUID.randomUUID();
        String text = "how do I drain a node before a k3s upgrade";
        JsonNode first = JSON.readTree(query(viewer(), session, text).body());
        assertThat(first.path("context").path("prefix_reuse").asDouble()).isZero();
        assertThat(first.path("context").path("order").asText()).isEqualTo("session");
        assertThat(first.path("calls").path("candidates").asInt())
                .isGreaterThanOrEqualTo(first.path("calls").path("selected").asInt());
        JsonNode again = JSON.readTree(query(viewer(), session, text + " safely").body());
        assertThat(again.path("context").path("prefix_reuse").asDouble()).isPositive();
        // the same session id from another caller starts its own session
        JsonNode other = JSON.readTree(query(token("dave", List.of("devops-team"), List.of("viewer")), session, text)
                .body());
        assertThat(other.path("context").path("chunks")).isNotEmpty();
        assertThat(other.path("context").path("prefix_reuse").asDouble()).isZero();

        // the project figures count every caller's contexts: operator data (OperatorFiguresOidcTest)
        String operator = token("olga", List.of("platform-team"), List.of("admin"));
        JsonNode projects = JSON.readTree(get(operator, "/memory/projects").body()).path("projects");
        JsonNode poimen = null;
        for (JsonNode p : projects) {
            if (p.path("name").asText().equals("poimen")) {
                poimen = p.path("cache_alignment");
            }
        }
        assertThat(poimen).isNotNull();
        assertThat(poimen.path("tokens_served").asLong()).isPositive();
        assertThat(poimen.path("tokens_reused").asLong()).isPositive();
        assertThat(poimen.path("hit_ratio").asDouble()).isBetween(0.0, 1.0);
        String metrics = get(operator, "/actuator/prometheus").body();
        assertThat(metrics).contains("poimen_context_tokens_served_total{project=\"poimen\"}")
                .contains("poimen_context_cache_hit_ratio{project=\"poimen\"}");
    }

    static List<String> paths(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path(field).asText()));
        return out;
    }
}
