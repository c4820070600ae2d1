package io.poimen.memory.security;

import io.poimen.memory.security.auth.TraceIds;
import io.poimen.memory.security.policy.PathMentions;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import io.poimen.memory.testsupport.ExampleVault;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.AnswerFigures;
import io.poimen.memory.testsupport.PolicyTrace;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * Nested policies over real HTTP in oidc mode (mock-oauth2-server as issuer), on the example vault plus a private
 * folder inside project poimen and a group-only shared folder: listing, project listing, graph reachability, file
 * read, backlinks, links, query, GRC status and the MCP tools (search_memory, read_note, list_skills, build_context,
 * recent_changes) as a caller who reads poimen but not the nested folders, and as one
 * who reads both; a denied note answers as a missing one; every audit row of a request carries the response's
 * trace id, never a client's {@code X-Request-Id}; and a query answers the same whether the notes the caller may
 * not read exist or not. The vault is a git working copy whose last commit adds the nested notes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-depth/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:depth-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false"})
class PolicyDepthHttpTest {
    static final String ISSUER = "poimen-depth";
    static final Path VAULT = Path.of("target/it-depth/vault");
    static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final String PLAN = "projects/poimen/secret/plan.md";
    static final String HIDDEN = "shared/secret/hidden.md";
    static final String ONLY_VIA_SECRET = "shared/concepts/only-via-secret.md";
    static final String POINTER = "projects/poimen/secret-pointer.md";
    static final String PLAN_TEXT = "# Secret plan\n\nThe zebracorn rollout for pod crash recovery, kubectl first.\n\n"
            + "See [[shared/concepts/only-via-secret]].\n";
    static final String HIDDEN_TEXT = "# Hidden\n\nzebracorn kubectl pod crash notes of the ml team.\n";
    /** A top-level folder of its own with a policy (ml-team only). */
    static final String PRIVATE_PLAN = "private/plan.md";
    /** A top-level folder without a policy, and a root note: outside_default (deny). */
    static final String TEMPLATE = "templates/daily.md";
    static final String ROOT_NOTE = "README.md";
    /** Folders whose policy is written under a near-miss name, or with a key written twice: denied to everyone. */
    static final String MISNAMED = "shared/misnamed/note.md";
    static final String TWICE = "shared/twice/note.md";
    /** Forms of the denied notes' paths a commit message or an event's text may use. */
    static final String MENTION_FORMS = "../secret/plan.md, [[plan|the plan]], [[plan#Goals]], "
            + "PROJECTS/POIMEN/SECRET/PLAN.MD, projects%2Fpoimen%2Fsecret%2Fplan.md, projects\u2215poimen\u2215secret"
            + "\u2215plan.md, ./plan.md";

    @LocalServerPort int port;
    @Autowired JdbcTemplate jdbc;

    static boolean issuerStarted;

    @DynamicPropertySource
    static synchronized void issuerAndVault(DynamicPropertyRegistry registry) throws IOException {
        if (!issuerStarted) { // one issuer for this class and its prod-store subclass (stopped with the JVM)
            OAUTH.start();
            issuerStarted = true;
        }
        FileSystemUtils.deleteRecursively(VAULT);
        ExampleVault.copyTo(VAULT);
        PersonIdent author = new PersonIdent("Depth", "depth@example.org");
        try (Git git = Git.init().setInitialBranch("main").setDirectory(VAULT.toFile()).call()) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("Example vault").setAuthor(author).setCommitter(author).call();
        } catch (org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IOException(e);
        }
        Path secret = Files.createDirectories(VAULT.resolve("projects/poimen/secret"));
        Files.writeString(secret.resolve("_access.yaml"), "access_level: private\nowner_group: ml-team\n");
        Files.writeString(VAULT.resolve(PLAN), PLAN_TEXT);
        Path shared = Files.createDirectories(VAULT.resolve("shared/secret"));
        Files.writeString(shared.resolve("_access.yaml"), "access_level: group\nallowed_groups: [ml-team]\n");
        Files.writeString(VAULT.resolve(HIDDEN), HIDDEN_TEXT);
        Files.writeString(VAULT.resolve(ONLY_VIA_SECRET), "# Only via secret\n\nA public concept about rollouts.\n");
        Files.writeString(VAULT.resolve(POINTER), "# Pointer\n\nSee [[projects/poimen/secret/plan]] and "
                + "[[shared/secret/hidden]] and [[shared/concepts/gitops]].\n");
        try (Git git = Git.open(VAULT.toFile())) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("Add " + PLAN + ", " + HIDDEN + " and " + POINTER).setAuthor(author)
                    .setCommitter(author).call();
        } catch (org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IOException(e);
        }
        // policies outside projects/ and shared/, a misnamed one, one with a key written twice
        Files.createDirectories(VAULT.resolve("private"));
        Files.writeString(VAULT.resolve("private/_access.yaml"), "access_level: private\nowner_group: ml-team\n");
        Files.writeString(VAULT.resolve(PRIVATE_PLAN), "# Private plan\n\nThe quokkaplan for kubectl pod crash.\n");
        Files.createDirectories(VAULT.resolve("templates"));
        Files.writeString(VAULT.resolve(TEMPLATE), "# Daily\n\nquokkatemplate for kubectl pod crash.\n");
        Files.writeString(VAULT.resolve(ROOT_NOTE), "# Vault\n\nquokkaroot. See [[private/plan]].\n");
        Files.createDirectories(VAULT.resolve("shared/misnamed"));
        Files.writeString(VAULT.resolve("shared/misnamed/_access.yml"), "access_level: public\n");
        Files.writeString(VAULT.resolve("shared/misnamed/_access.yaml.md"), "# Not a note\n\nquokkanearmiss.\n");
        Files.writeString(VAULT.resolve(MISNAMED), "# Misnamed\n\nquokkamisnamed pod crash.\n");
        Files.createDirectories(VAULT.resolve("shared/twice"));
        Files.writeString(VAULT.resolve("shared/twice/_access.yaml"),
                "access_level: private\nowner_group: ml-team\naccess_level: public\n");
        Files.writeString(VAULT.resolve(TWICE), "# Twice\n\nquokkatwice pod crash.\n");
        Files.writeString(VAULT.resolve(POINTER), Files.readString(VAULT.resolve(POINTER))
                + "\nAlso [[private/plan]] and [[projects/poimen/secret/missing-plan]].\n");
        try (Git git = Git.open(VAULT.toFile())) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("Add " + PRIVATE_PLAN + " " + TEMPLATE + " " + MISNAMED + "; see "
                    + MENTION_FORMS).setAuthor(author).setCommitter(author).call();
        } catch (org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IOException(e);
        }
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        registry.add("poimen.vault.path", () -> VAULT.toString());
    }

    static String token(String sub, List<String> groups, List<String> roles) {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, sub,
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", groups, "roles", roles),
                3600)).serialize();
    }

    /** Reads poimen (platform-team), not its secret folder (ml-team only), nor shared/secret. */
    static String charlie() {
        return token("charlie", List.of("platform-team", "devops-team"), List.of("viewer"));
    }

    /** Reads poimen and both nested folders. */
    static String dana() {
        return token("dana", List.of("platform-team", "ml-team"), List.of("admin"));
    }

    HttpResponse<String> get(String token, String path, String... params) throws Exception {
        StringBuilder uri = new StringBuilder("http://127.0.0.1:" + port + path);
        for (int i = 0; i < params.length; i += 2) {
            uri.append(i == 0 ? '?' : '&').append(params[i]).append('=')
                    .append(URLEncoder.encode(params[i + 1], StandardCharsets.UTF_8));
        }
        return send(HttpRequest.newBuilder(URI.create(uri.toString())).GET()
                .header("Authorization", "Bearer " + token).header("X-Request-Id", "client-chosen-id").build());
    }

    HttpResponse<String> query(String token, String text) throws Exception {
        return query(token, text, "hybrid");
    }

    HttpResponse<String> query(String token, String text, String method) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(
                        Map.of("project", "poimen", "query", text, "top_k", 20, "search_method", method)))).build());
    }

    /** Sends, then checks that every audit row of the request carries the response's trace id. */
    HttpResponse<String> send(HttpRequest request) throws Exception {
        long rowsBefore = auditRows();
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        String trace = r.headers().firstValue(TraceIds.RESPONSE_HEADER).orElseThrow();
        assertThat(trace).matches("[0-9a-f]{32}");
        assertThat(rowsUnder(trace)).as("every audit row written for " + request.uri() + " is under its X-Trace-Id")
                .isEqualTo(auditRows() - rowsBefore);
        assertThat(jdbc.queryForObject("select count(*) from rbac_audit_log where trace_id in (?, ?)", Long.class,
                "client-chosen-id", "")).as("no audit row under a client's id").isZero();
        audited.add(trace);
        return r;
    }

    final List<String> audited = new ArrayList<>();

    long auditRows() {
        return jdbc.queryForObject("select count(*) from rbac_audit_log", Long.class);
    }

    long rowsUnder(String trace) {
        return jdbc.queryForObject("select count(*) from rbac_audit_log where trace_id = ?", Long.class, trace);
    }

    List<String> listing(String token, String... params) throws Exception {
        HttpResponse<String> r = get(token, "/memory/vault", params);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body()).path("files").findValuesAsText("path");
    }

    @Test
    void listingsAndReachabilityShowOnlyReadableNotesReachedThroughReadableNotes() throws Exception {
        assertThat(listing(charlie())).contains(POINTER, ONLY_VIA_SECRET).doesNotContain(PLAN, HIDDEN);
        assertThat(listing(charlie(), "project", "poimen")).contains(POINTER)
                .doesNotContain(PLAN, HIDDEN, ONLY_VIA_SECRET);
        JsonNode notes = JSON.readTree(get(charlie(), "/memory/graph/reachable", "project", "poimen").body())
                .path("notes");
        List<String> charlieScope = new ArrayList<>();
        notes.forEach(n -> charlieScope.add(n.asText()));
        assertThat(charlieScope).contains(POINTER).doesNotContain(PLAN, HIDDEN, ONLY_VIA_SECRET);

        assertThat(listing(dana(), "project", "poimen")).contains(POINTER, PLAN, ONLY_VIA_SECRET, HIDDEN);
        assertAuditedUnderResponseTraceIds();
    }

    @Test
    void aDeniedNoteAnswersExactlyAsAMissingOne() throws Exception {
        for (String denied : List.of(PLAN, HIDDEN)) {
            String missing = denied.replace(".md", "-nope.md");
            for (String endpoint : List.of("/memory/vault/file", "/memory/graph/backlinks")) {
                HttpResponse<String> a = get(charlie(), endpoint, "path", denied);
                HttpResponse<String> b = get(charlie(), endpoint, "path", missing);
                assertThat(a.statusCode()).as(endpoint + " " + a.body()).isEqualTo(404).isEqualTo(b.statusCode());
                assertThat(a.body().replace(denied, "P")).isEqualTo(b.body().replace(missing, "P"));
                assertThat(a.body()).doesNotContain("zebracorn", "forbidden", "ml-team");
            }
            assertThat(get(dana(), "/memory/vault/file", "path", denied).statusCode()).isEqualTo(200);
        }
        assertAuditedUnderResponseTraceIds();
    }

    @Test
    void linksAndBacklinksNeverNameANoteTheCallerMayNotRead() throws Exception {
        JsonNode note = JSON.readTree(get(charlie(), "/memory/vault/file", "path", POINTER).body());
        Map<String, String> resolved = new java.util.HashMap<>();
        // a null resolved_path is left out of the JSON, as for an unresolved link
        note.path("links").forEach(l -> resolved.put(l.path("target").asText(),
                l.path("resolved_path").isTextual() ? l.path("resolved_path").asText() : null));
        assertThat(resolved).containsEntry("projects/poimen/secret/plan", null)
                .containsEntry("shared/secret/hidden", null)
                .containsEntry("shared/concepts/gitops", "shared/concepts/gitops.md");
        JsonNode forDana = JSON.readTree(get(dana(), "/memory/vault/file", "path", POINTER).body());
        assertThat(forDana.path("links").findValuesAsText("resolved_path")).contains(PLAN, HIDDEN);

        JsonNode back = JSON.readTree(get(charlie(), "/memory/graph/backlinks", "path", ONLY_VIA_SECRET).body());
        assertThat(back.path("backlinks")).isEmpty(); // only the secret plan links to it
        JsonNode backForDana = JSON.readTree(get(dana(), "/memory/graph/backlinks", "path", ONLY_VIA_SECRET).body());
        assertThat(backForDana.path("backlinks").toString()).contains(PLAN);
        assertAuditedUnderResponseTraceIds();
    }

    @Test
    void queriesNeverReturnNestedDeniedNotesAndGrcStatusRevealsNothingWithoutADraft() throws Exception {
        HttpResponse<String> c = query(charlie(), "zebracorn rollout pod crash kubectl");
        assertThat(c.statusCode()).as(c.body()).isEqualTo(200);
        assertThat(c.body()).doesNotContain(PLAN, HIDDEN, ONLY_VIA_SECRET, "zebracorn rollout");
        HttpResponse<String> d = query(dana(), "zebracorn rollout pod crash kubectl");
        assertThat(JSON.readTree(d.body()).path("results").findValuesAsText("path")).contains(PLAN);

        assertAuditedUnderResponseTraceIds();
        HttpResponse<String> grc = get(charlie(), "/memory/grc/status", "pr", "42");
        assertThat(grc.statusCode()).as(grc.body()).isEqualTo(404);
        assertThat(grc.body()).doesNotContain("state", "branch");
    }

    /**
     * The same where docs/security.md says so ({@link AnswerFigures#assertSameWhereGuaranteed}): semantic and TF-IDF
     * answers entirely; with the BM25 branch the plan, the candidate count and the other branches' scores, not its
     * index-wide statistics (which also count deleted chunks until a merge). RankingSideChannelHttpTest compares
     * many generated queries.
     */
    @Test
    void aQueryAnswersTheSameWhetherTheNotesTheCallerMayNotReadExistOrNot() throws Exception {
        String text = "zebracorn kubectl pod crash";
        List<String> methods = List.of("hybrid", "lexical", "semantic", "tfidf");
        Map<String, JsonNode> with = new java.util.LinkedHashMap<>();
        for (String method : methods) {
            with.put(method, comparable(query(charlie(), text, method)));
            assertThat(with.get(method).path("results").size()).as(method).isPositive();
        }
        try {
            Files.delete(VAULT.resolve(PLAN));
            Files.delete(VAULT.resolve(HIDDEN));
            reindex();
            for (String method : methods) {
                AnswerFigures.assertSameWhereGuaranteed(method, method, with.get(method),
                        comparable(query(charlie(), text, method)));
            }
        } finally {
            Files.writeString(VAULT.resolve(PLAN), PLAN_TEXT);
            Files.writeString(VAULT.resolve(HIDDEN), HIDDEN_TEXT);
            reindex();
        }
    }

    static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    static String ok(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult r = call(client, tool, args);
        assertThat(r.isError()).as(tool + ": " + McpClients.text(r)).isFalse();
        return McpClients.text(r);
    }

    @Test
    void mcpToolsApplyNestedPoliciesAndADeniedNoteAnswersAsAMissingOne() throws Exception {
        String base = "http://127.0.0.1:" + port;
        String charlieTrace = TraceIds.generate();
        String danaTrace = TraceIds.generate();
        long charlieRows = rowsOf("charlie");
        try (McpSyncClient c = McpClients.connect(base, charlie(), "00-" + charlieTrace + "-00f067aa0ba902b7-01");
             McpSyncClient d = McpClients.connect(base, dana(), "00-" + danaTrace + "-00f067aa0ba902b7-01")) {
            Map<String, Object> search = Map.of("project", "poimen", "query", "zebracorn rollout pod crash kubectl",
                    "top_k", 20);
            assertThat(ok(c, "search_memory", search)).doesNotContain(PLAN, HIDDEN, ONLY_VIA_SECRET,
                    "zebracorn rollout");
            assertThat(ok(d, "search_memory", search)).contains(PLAN);

            for (String tool : List.of("read_note", "build_context")) {
                for (String denied : List.of(PLAN, HIDDEN)) {
                    String missing = denied.replace(".md", "-nope.md");
                    McpSchema.CallToolResult a = call(c, tool, Map.of("path", denied));
                    McpSchema.CallToolResult b = call(c, tool, Map.of("path", missing));
                    assertThat(a.isError()).as(tool + " " + denied).isTrue();
                    assertThat(McpClients.text(a)).as(tool + " " + denied + " answers as a missing note")
                            .contains("404").isEqualTo(McpClients.text(b).replace(missing, denied))
                            .doesNotContain("zebracorn", "ml-team");
                    assertThat(ok(d, tool, Map.of("path", denied))).contains("zebracorn");
                }
            }

            Map<String, Object> around = Map.of("path", POINTER, "hops", 2, "budget_tokens", 50_000);
            assertThat(ok(c, "build_context", around)).contains(POINTER, "shared/concepts/gitops.md")
                    .doesNotContain(PLAN, HIDDEN, ONLY_VIA_SECRET, "zebracorn");
            assertThat(ok(d, "build_context", around)).contains(PLAN, HIDDEN, ONLY_VIA_SECRET);

            Map<String, Object> since = Map.of("since", "2000-01-01T00:00:00Z", "limit", 500);
            JsonNode changes = JSON.readTree(ok(c, "recent_changes", since)).path("changes");
            assertThat(changes.findValuesAsText("path")).contains(POINTER, ONLY_VIA_SECRET)
                    .doesNotContain(PLAN, HIDDEN);
            assertThat(changes.toString()).as("nor named in a commit message").doesNotContain(PLAN, HIDDEN)
                    .contains("[path hidden]");
            assertThat(JSON.readTree(ok(d, "recent_changes", since)).path("changes").findValuesAsText("path"))
                    .contains(PLAN, HIDDEN);

            assertThat(ok(c, "list_skills", Map.of())).doesNotContain("SKILL-private-debug");
            assertThat(ok(d, "list_skills", Map.of())).contains("SKILL-private-debug");

        }
        // every decision of charlie's tool calls is audited under the trace id of the MCP requests
        assertThat(rowsUnder(charlieTrace)).isPositive().isEqualTo(rowsOf("charlie") - charlieRows);
        assertThat(jdbc.queryForList("select distinct decision from rbac_audit_log where trace_id = ?", String.class,
                charlieTrace)).contains("allow", "deny");
        assertThat(rowsUnder(danaTrace)).isPositive();
    }

    @Autowired io.poimen.memory.health.PolicyFilesHealthIndicator policyHealth;
    @Autowired io.micrometer.core.instrument.MeterRegistry meters;

    /** Two answers alike but for the names each request carries. */
    static void assertSameAnswer(HttpResponse<String> a, HttpResponse<String> b, String nameA, String nameB) {
        assertThat(a.statusCode()).as(nameA + ": " + a.body()).isEqualTo(b.statusCode());
        assertThat(a.body().replace(nameA, "N")).as(nameA).isEqualTo(b.body().replace(nameB, "N"));
        assertThat(a.headers().firstValue("Content-Type")).isEqualTo(b.headers().firstValue("Content-Type"));
    }

    @Test
    void aPathUnderANoteADeniedNoteOrProjectAndAMissingOneGetOneAnswerAndProbesLeaveNoTrace() throws Exception {
        // every folder asked once, so that what policy lookups report is in before the probes
        listing(charlie());
        Object health = policyHealth.health().getDetails();
        try (PolicyTrace trace = PolicyTrace.start(meters)) {
            // a path under a note, denied or readable, is simply not found
            for (String note : List.of(PLAN, POINTER, HIDDEN)) {
                String under = note + "/x.md";
                String missing = note.replace(".md", "-nope.md") + "/x.md";
                for (String endpoint : List.of("/memory/vault/file", "/memory/graph/backlinks")) {
                    HttpResponse<String> a = get(charlie(), endpoint, "path", under);
                    assertThat(a.statusCode()).isEqualTo(404);
                    assertSameAnswer(a, get(charlie(), endpoint, "path", missing), under, missing);
                }
                HttpResponse<String> a = get(charlie(), "/memory/access/check", "path", under);
                assertThat(a.body()).doesNotContain("policy_unparseable");
                assertSameAnswer(a, get(charlie(), "/memory/access/check", "path", missing), under, missing);
            }
            // a note the caller may not read: the access check tells no reason, as for a project that does not exist
            JsonNode denied = JSON.readTree(get(charlie(), "/memory/access/check", "path", PLAN).body());
            JsonNode none = JSON.readTree(get(charlie(), "/memory/access/check", "path", "projects/no-such/x.md")
                    .body());
            for (JsonNode d : List.of(denied, none)) {
                assertThat(d.path("read").toString()).isEqualTo("{\"allowed\":false,\"reason\":\"denied\"}");
                assertThat(d.path("write").toString()).isEqualTo("{\"allowed\":false,\"reason\":\"denied\"}");
            }
            // a project the caller may not read and one that does not exist: one answer on every project surface
            for (String endpoint : List.of("/memory/vault", "/memory/graph/reachable")) {
                HttpResponse<String> a = get(charlie(), endpoint, "project", "ml-training");
                assertThat(a.statusCode()).as(a.body()).isEqualTo(403);
                assertThat(a.body()).doesNotContain("reason", "not_in", "default");
                assertSameAnswer(a, get(charlie(), endpoint, "project", "no-such-project"), "ml-training",
                        "no-such-project");
                HttpResponse<String> nested = get(charlie(), endpoint, "project", "poimen/secret");
                assertThat(nested.statusCode()).as("a project is one folder name").isEqualTo(400);
                assertThat(nested.body()).doesNotContain("_access.yaml", "ml-team", "owner");
            }
            assertSameAnswer(queryProject(charlie(), "ml-training"), queryProject(charlie(), "no-such-project"),
                    "ml-training", "no-such-project");
            assertThat(queryProject(charlie(), "ml-training").statusCode()).isEqualTo(403);
            // over MCP too
            try (McpSyncClient c = McpClients.connect("http://127.0.0.1:" + port, charlie())) {
                for (String tool : List.of("read_note", "build_context")) {
                    String under = PLAN + "/x.md";
                    String missing = "projects/poimen/secret/plan-nope.md/x.md";
                    assertThat(McpClients.text(call(c, tool, Map.of("path", under)))).as(tool).contains("404")
                            .isEqualTo(McpClients.text(call(c, tool, Map.of("path", missing))).replace(missing, under));
                }
            }
            trace.assertNothingLeft();
        }
        assertThat(policyHealth.health().getDetails()).as("nor the policies health").isEqualTo(health);
    }

    HttpResponse<String> queryProject(String token, String project) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(
                        Map.of("project", project, "query", "pods")))).build());
    }

    @Test
    void aLinkToANoteTheCallerMayNotReadLooksExactlyLikeAnUnresolvedOne() throws Exception {
        JsonNode links = JSON.readTree(get(charlie(), "/memory/vault/file", "path", POINTER).body()).path("links");
        JsonNode hidden = null;
        JsonNode unresolved = null;
        for (JsonNode l : links) {
            if (l.path("target").asText().equals("projects/poimen/secret/plan")) {
                hidden = l;
            } else if (l.path("target").asText().equals("projects/poimen/secret/missing-plan")) {
                unresolved = l;
            }
        }
        assertThat(hidden).isNotNull();
        assertThat(unresolved).isNotNull();
        assertThat(hidden.toString().replace("plan", "X")).isEqualTo(unresolved.toString().replace("missing-plan", "X"));
        JsonNode forDana = JSON.readTree(get(dana(), "/memory/vault/file", "path", POINTER).body()).path("links");
        assertThat(forDana.toString()).contains("\"resolved_path\":\"" + PLAN + "\"", "\"type\":\"memory\"");
    }

    @Test
    void policiesInEveryFolderHoldOnEverySurfaceAndMisnamedOrDoubledOnesDeny() throws Exception {
        List<String> deniedToCharlie = List.of(PRIVATE_PLAN, TEMPLATE, ROOT_NOTE, MISNAMED, TWICE);
        assertThat(listing(charlie())).doesNotContainAnyElementsOf(deniedToCharlie);
        for (String note : deniedToCharlie) {
            String missing = note.replace(".md", "-nope.md");
            HttpResponse<String> a = get(charlie(), "/memory/vault/file", "path", note);
            assertThat(a.statusCode()).as(note).isEqualTo(404);
            assertSameAnswer(a, get(charlie(), "/memory/vault/file", "path", missing), note, missing);
        }
        // the top-level folder's own policy lets the ml-team in; no policy, a misnamed or a doubled one: nobody
        assertThat(get(dana(), "/memory/vault/file", "path", PRIVATE_PLAN).body()).contains("quokkaplan");
        for (String note : List.of(TEMPLATE, ROOT_NOTE, MISNAMED, TWICE)) {
            assertThat(get(dana(), "/memory/vault/file", "path", note).statusCode()).as(note).isEqualTo(404);
        }
        // a near-miss of the policy name is never a note, nor is the misnamed policy served
        assertThat(listing(dana())).doesNotContain("shared/misnamed/_access.yaml.md", "shared/misnamed/_access.yml");
        assertThat(get(dana(), "/memory/vault/file", "path", "shared/misnamed/_access.yml").statusCode())
                .isEqualTo(404);
        // both are reported: file, what applies instead
        assertThat(policyHealth.health().getStatus().getCode()).isEqualTo("DEGRADED");
        assertThat(policyHealth.health().getDetails().toString())
                .contains(VAULT.resolve("shared/misnamed/_access.yml") + "=rejected, access it governs is DENIED",
                        VAULT.resolve("shared/misnamed/_access.yaml.md") + "=rejected, access it governs is DENIED",
                        "near-miss", VAULT.resolve("shared/twice/_access.yaml") + "=rejected, access it governs is "
                                + "DENIED", "duplicate key access_level");

        try (McpSyncClient c = McpClients.connect("http://127.0.0.1:" + port, charlie());
             McpSyncClient d = McpClients.connect("http://127.0.0.1:" + port, dana())) {
            Map<String, Object> around = Map.of("path", POINTER, "hops", 2, "budget_tokens", 50_000);
            assertThat(ok(c, "build_context", around)).contains(POINTER).doesNotContain(PRIVATE_PLAN, "quokka");
            assertThat(ok(d, "build_context", around)).contains(PRIVATE_PLAN, "quokkaplan");
            Map<String, Object> since = Map.of("since", "2000-01-01T00:00:00Z", "limit", 500);
            JsonNode changes = JSON.readTree(ok(c, "recent_changes", since)).path("changes");
            assertThat(changes.findValuesAsText("path")).contains(POINTER)
                    .doesNotContainAnyElementsOf(deniedToCharlie);
            assertThat(JSON.readTree(ok(d, "recent_changes", since)).path("changes").findValuesAsText("path"))
                    .contains(PRIVATE_PLAN).doesNotContain(TEMPLATE, ROOT_NOTE, MISNAMED, TWICE);
        }
        assertAuditedUnderResponseTraceIds();
    }

    @Test
    void everyFormOfADeniedPathIsHiddenInCommitMessagesAndAgentEventsKeysIncluded() throws Exception {
        try (McpSyncClient c = McpClients.connect("http://127.0.0.1:" + port, charlie());
             McpSyncClient d = McpClients.connect("http://127.0.0.1:" + port, dana())) {
            Map<String, Object> since = Map.of("since", "2000-01-01T00:00:00Z", "limit", 500);
            String forCharlie = ok(c, "recent_changes", since);
            assertThat(forCharlie).contains(PathMentions.HIDDEN).doesNotContain("secret/plan", "SECRET/PLAN",
                    "secret%2Fplan", "secret\u2215plan", "[[plan", "./plan.md", PRIVATE_PLAN, TEMPLATE, MISNAMED);
            assertThat(ok(d, "recent_changes", since)).contains("../secret/plan.md", "[[plan|the plan]]");
        }
        HttpResponse<String> posted = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/memory/agents/events")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + dana()).POST(HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(Map.of("agent_id", "planner", "type", "agent_decision",
                                "payload", Map.of("project", "poimen", "note", "read " + MENTION_FORMS,
                                        "weights", Map.of(PLAN, 0.9, POINTER, 0.5,
                                                "Projects/Poimen/Secret/Plan.md", 0.1)))))).build());
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(201);
        // a marker after it that names only what charlie may read: another caller's event is shown whole or not at
        // all, so charlie's log holds the marker and nothing of the first event, in any of its forms
        HttpResponse<String> marker = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/memory/agents/events")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + dana()).POST(HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(Map.of("agent_id", "planner", "type", "agent_decision",
                                "payload", Map.of("project", "poimen", "note", "marker after the plan",
                                        "weights", Map.of(POINTER, 0.5)))))).build());
        assertThat(marker.statusCode()).as(marker.body()).isEqualTo(201);
        String charliesLog = get(charlie(), "/memory/agents/logs", "agent_id", "dana/planner").body();
        JsonNode seen = JSON.readTree(charliesLog).path("events");
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).path("payload").path("note").asText()).isEqualTo("marker after the plan");
        assertThat(seen.get(0).path("payload").path("weights").fieldNames()).toIterable().containsExactly(POINTER);
        assertThat(charliesLog).doesNotContain("secret/plan", "SECRET/PLAN", "secret%2Fplan", "secret\u2215plan",
                "[[plan", "./plan.md", "Projects/Poimen/Secret/Plan.md");
        assertThat(get(dana(), "/memory/agents/logs", "agent_id", "planner").body()).contains("../secret/plan.md");
    }

    long rowsOf(String user) {
        return jdbc.queryForObject("select count(*) from rbac_audit_log where user_id = ?", Long.class, user);
    }

    void reindex() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/memory/admin/reindex")).header("Authorization", "Bearer " + dana())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    /** The answer without its timings (the only part that may differ between two runs). */
    static JsonNode comparable(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return AnswerFigures.comparable(r.body());
    }

    /** Each request so far made at least one decision, and its rows are under its response's trace id. */
    void assertAuditedUnderResponseTraceIds() {
        assertThat(audited).isNotEmpty().allSatisfy(trace -> assertThat(jdbc.queryForObject(
                "select count(*) from rbac_audit_log where trace_id = ?", Long.class, trace))
                .as("rows of trace " + trace).isPositive());
    }
}
