package io.poimen.memory.security;

import io.poimen.memory.security.auth.TraceIds;
import io.poimen.memory.security.policy.PolicyStore;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
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
import java.sql.Array;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * The hub in oidc mode over real HTTP, against a real OIDC issuer (mock-oauth2-server, discovery + JWKS): the
 * notes' charlie / alice / bob scenarios with their audit rows, every bad-token case, path safety, the admin-only
 * audit endpoint and policy hot reload on a temporary copy of the example vault.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-security/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:security-it;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false"})
class OidcSecurityHttpTest {
    static final String ISSUER = "poimen-test";
    static final Path VAULT = Path.of("target/it-security/vault");
    static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort int port;
    @Autowired JdbcTemplate jdbc;

    @DynamicPropertySource
    static void issuerAndVault(DynamicPropertyRegistry registry) throws IOException {
        OAUTH.start();
        FileSystemUtils.deleteRecursively(VAULT);
        ExampleVault.copyTo(VAULT);
        Path outside = Files.createDirectories(Path.of("target/it-security/outside"));
        Files.writeString(outside.resolve("secret.md"), "# outside the vault\n");
        Files.createSymbolicLink(VAULT.resolve("projects/poimen/escape"), outside.toAbsolutePath());
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        registry.add("poimen.vault.path", () -> VAULT.toString());
    }

    @AfterAll
    static void stopIssuer() {
        OAUTH.shutdown();
    }

    static String token(String sub, List<String> groups, List<String> roles) {
        return token(sub, groups, roles, List.of("poimen-memory"), 3600, ISSUER);
    }

    static String token(String sub, List<String> groups, List<String> roles, List<String> audience, long expiry,
                        String issuer) {
        return OAUTH.issueToken(issuer, "poimen-cli", new DefaultOAuth2TokenCallback(issuer, sub,
                JOSEObjectType.JWT.getType(), audience, Map.of("groups", groups, "roles", roles), expiry)).serialize();
    }

    static String charlie() {
        return token("charlie", List.of("platform-team", "devops-team"), List.of("viewer"));
    }

    static String alice() {
        return token("alice", List.of("data-team"), List.of("viewer"));
    }

    static String bob() {
        return token("bob", List.of("ml-team"), List.of("editor"));
    }

    HttpResponse<String> query(String token, String project, String text) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(
                        Map.of("project", project, "query", text, "top_k", 20))));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String token, String pathAndQuery) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> r) throws IOException {
        return JSON.readTree(r.body());
    }

    static String traceId(HttpResponse<String> r) {
        return r.headers().firstValue(TraceIds.RESPONSE_HEADER).orElseThrow();
    }

    List<Map<String, Object>> auditRows(String traceId) {
        return jdbc.queryForList("select * from rbac_audit_log where trace_id = ? order by id", traceId);
    }

    static List<String> groups(Object column) throws SQLException {
        Object[] values = column instanceof Array a ? (Object[]) a.getArray() : (Object[]) column;
        return Arrays.stream(values).map(String::valueOf).toList();
    }

    static List<String> paths(HttpResponse<String> r) throws IOException {
        return json(r).path("results").findValuesAsText("path");
    }

    @Test
    void charlieReadsPoimenAndTheAllowIsAudited() throws Exception {
        HttpResponse<String> r = query(charlie(), "poimen", "fix pod crash");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(paths(r)).isNotEmpty().allMatch(p -> p.startsWith("projects/poimen/") || p.startsWith("shared/"));
        List<Map<String, Object>> rows = auditRows(traceId(r));
        Map<String, Object> project = rows.get(0);
        assertThat(project).containsEntry("user_id", "charlie").containsEntry("resource_type", "project")
                .containsEntry("resource_name", "poimen").containsEntry("action", "read")
                .containsEntry("decision", "allow").containsEntry("reason", "in_allowed_group");
        assertThat(groups(project.get("user_groups"))).containsExactly("platform-team", "devops-team");
        assertThat(project.get("timestamp")).isNotNull();
    }

    @Test
    void aliceIsRefusedPoimenBeforeAnySearchWithoutAReasonAndTheReasonIsInTheDenyRow() throws Exception {
        HttpResponse<String> r = query(alice(), "poimen", "fix pod crash");

        assertThat(r.statusCode()).isEqualTo(403);
        JsonNode body = json(r);
        assertThat(body.path("error").asText()).isEqualTo("forbidden");
        assertThat(body.has("reason")).as("the caller is not told why").isFalse();
        assertThat(body.path("message").asText()).isEqualTo("read access to project poimen denied");
        assertThat(body.has("results")).isFalse();
        List<Map<String, Object>> rows = auditRows(traceId(r));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).containsEntry("user_id", "alice").containsEntry("resource_name", "poimen")
                .containsEntry("decision", "deny").containsEntry("reason", "not_in_allowed_groups");
    }

    @Test
    void charlieNeverSeesThePrivateSkillWhileBobDoes() throws Exception {
        HttpResponse<String> c = query(charlie(), "poimen", "kubernetes debugging");
        assertThat(c.statusCode()).isEqualTo(200);
        // poimen's pod-crashes.md mentions [[SKILL-private-debug]] in its text; the skill's own chunks never come
        assertThat(paths(c)).noneMatch(p -> p.startsWith("shared/skills/SKILL-private-debug/"));
        assertThat(json(c).path("context").path("chunks").toString()).doesNotContain("shared/skills/SKILL-private-debug/");
        assertThat(paths(c)).anyMatch(p -> p.startsWith("shared/skills/SKILL-kubernetes-debugging/"));
        // the private skill was a candidate (so the filter, not the ranking, removed it) and the removal is audited
        assertThat(auditRows(traceId(c))).anySatisfy(row -> assertThat(row)
                .containsEntry("resource_type", "skill").containsEntry("resource_name", "SKILL-private-debug")
                .containsEntry("decision", "deny").containsEntry("reason", "not_in_owner_group"))
                .anySatisfy(row -> assertThat(row).containsEntry("resource_name", "SKILL-kubernetes-debugging")
                        .containsEntry("decision", "allow").containsEntry("reason", "in_allowed_group"));

        HttpResponse<String> b = query(bob(), "ml-training", "kubernetes debugging");
        assertThat(b.statusCode()).isEqualTo(200);
        assertThat(paths(b)).anyMatch(p -> p.startsWith("shared/skills/SKILL-private-debug/"))
                .noneMatch(p -> p.startsWith("shared/skills/SKILL-kubernetes-debugging/"));
        assertThat(auditRows(traceId(b))).anySatisfy(row -> assertThat(row)
                .containsEntry("resource_name", "SKILL-private-debug").containsEntry("decision", "allow")
                .containsEntry("reason", "owner_group"));
    }

    @Test
    void theTraceIdOfATraceparentIsReturnedAndAudited() throws Exception {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + charlie())
                .header("traceparent", traceparent)
                .POST(HttpRequest.BodyPublishers.ofString("{\"project\":\"rust-guide\",\"query\":\"ownership\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(traceId(r)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(auditRows("4bf92f3577b34da6a3ce929d0e0e4736")).first().satisfies(row -> assertThat(row)
                .containsEntry("resource_name", "rust-guide").containsEntry("reason", "access_level_public"));
    }

    @Test
    void everyBadTokenIsA401JsonAnswerNeverA500() throws Exception {
        String good = charlie();
        String[] parts = good.split("\\.");
        String tamperedPayload = Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("\"charlie\"", "\"mallory\"").getBytes(StandardCharsets.UTF_8));
        RSAKey issuerKey = (RSAKey) JWKSet.load(OAUTH.jwksUrl(ISSUER).url()).getKeys().get(0);
        JWTClaimsSet claims = SignedJWT.parse(good).getJWTClaimsSet();
        SignedJWT hs256 = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(issuerKey.getKeyID()).build(),
                claims);
        hs256.sign(new MACSigner(issuerKey.toRSAPublicKey().getEncoded()));
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("missing", null);
        cases.put("malformed", "not-a-jwt");
        cases.put("three garbage parts", "abc.def.ghi");
        cases.put("expired", token("charlie", List.of("platform-team"), List.of("viewer"), List.of("poimen-memory"),
                -120, ISSUER));
        cases.put("wrong signature", parts[0] + "." + tamperedPayload + "." + parts[2]);
        cases.put("wrong issuer", token("charlie", List.of("platform-team"), List.of(), List.of("poimen-memory"), 3600,
                "other-issuer"));
        cases.put("wrong audience", token("charlie", List.of("platform-team"), List.of(), List.of("someone-else"),
                3600, ISSUER));
        cases.put("alg none", new PlainJWT(claims).serialize());
        cases.put("HS256 signed with the public key", hs256.serialize());

        for (Map.Entry<String, String> c : cases.entrySet()) {
            HttpResponse<String> r = query(c.getValue(), "poimen", "fix pod crash");
            assertThat(r.statusCode()).as(c.getKey() + ": " + r.body()).isEqualTo(401);
            assertThat(r.headers().firstValue("Content-Type").orElse("")).as(c.getKey()).contains("application/json");
            assertThat(json(r).path("error").asText()).as(c.getKey()).isEqualTo("unauthorized");
            assertThat(json(r).path("message").asText()).as(c.getKey()).isNotBlank();
        }
        assertThat(query(good, "poimen", "fix pod crash").statusCode()).as("the untampered token").isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../../etc/passwd", "/etc/passwd", "projects/../../x.md", "%2e%2e/%2e%2e/etc/passwd",
            "%252e%252e/etc", "projects\\poimen\\index.md", "projects/poimen/escape/secret.md", "C:/x.md"})
    void pathsOutsideTheVaultAreRejected(String path) throws Exception {
        HttpResponse<String> r = get(charlie(), "/memory/access/check?path="
                + URLEncoder.encode(path, StandardCharsets.UTF_8));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).path("error").asText()).isEqualTo("bad_path");
    }

    @Test
    void accessCheckTellsWhatTheCallerMayDoWithAPath() throws Exception {
        JsonNode charlie = json(get(charlie(), "/memory/access/check?path=projects/poimen/tools/kubectl.md"));
        assertThat(charlie.path("resource_name").asText()).isEqualTo("poimen");
        assertThat(charlie.path("read").path("allowed").asBoolean()).isTrue();
        assertThat(charlie.path("write").path("allowed").asBoolean()).isFalse();
        assertThat(charlie.path("write").path("reason").asText()).isEqualTo("role_requirement_failed: need editor");

        JsonNode bob = json(get(bob(), "/memory/access/check?path=shared/skills/SKILL-private-debug/SKILL.md"));
        assertThat(bob.path("read").path("reason").asText()).isEqualTo("owner_group");
        assertThat(bob.path("write").path("allowed").asBoolean()).isTrue();
    }

    @Test
    void theAuditLogIsForAdminsOnlyAndFilters() throws Exception {
        query(alice(), "poimen", "fix pod crash");
        HttpResponse<String> viewer = get(charlie(), "/memory/audit");
        assertThat(viewer.statusCode()).isEqualTo(403);
        assertThat(json(viewer).path("reason").asText()).isEqualTo("role_requirement_failed: need admin");

        String admin = token("dana", List.of("platform-team"), List.of("admin"));
        HttpResponse<String> r = get(admin, "/memory/audit?user=alice&decision=deny&resource=poimen&limit=5");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode entries = json(r);
        assertThat(entries.isArray()).isTrue();
        assertThat(entries.size()).isBetween(1, 5);
        entries.forEach(e -> {
            assertThat(e.path("user_id").asText()).isEqualTo("alice");
            assertThat(e.path("decision").asText()).isEqualTo("deny");
            assertThat(e.path("resource_name").asText()).isEqualTo("poimen");
            assertThat(e.path("user_groups").get(0).asText()).isEqualTo("data-team");
        });
        assertThat(get(admin, "/memory/audit?since=2999-01-01T00:00:00Z").body()).isEqualTo("[]");
        assertThat(get(admin, "/memory/audit?limit=0").statusCode()).isEqualTo(400);
        assertThat(get(admin, "/memory/audit?decision=maybe").statusCode()).isEqualTo(400);
    }

    @Test
    void anEditedPolicyAppliesToTheNextRequestAndABrokenOneKeepsThePreviousVersionAndIsReported() throws Exception {
        Path policy = VAULT.resolve("projects/rust-guide/_access.yaml");
        String original = Files.readString(policy);
        String restricted = "project: rust-guide\nowner_group: rust-learners\naccess_level: group\n"
                + "allowed_groups: [rust-learners]\n";
        try {
            assertThat(query(charlie(), "rust-guide", "ownership").statusCode()).isEqualTo(200);
            assertThat(rejectedAccessPolicies()).isEqualTo(0);

            edit(policy, restricted, 1);
            HttpResponse<String> denied = query(charlie(), "rust-guide", "ownership");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(auditRows(traceId(denied)).get(0)).containsEntry("reason", "not_in_allowed_groups");

            // an unknown key, a wrong type, bad YAML: each rejected at its line, the restricted version stays
            Map<String, String> broken = Map.of(
                    restricted.replace("allowed_groups", "alowed_groups"), ":4: unknown key 'alowed_groups'",
                    restricted.replace("[rust-learners]", "{a: 1}"), ":4: key 'allowed_groups",
                    "project: rust-guide\naccess_level: [group\n", "not valid YAML");
            int n = 2;
            for (Map.Entry<String, String> b : broken.entrySet()) {
                edit(policy, b.getKey(), n++);
                HttpResponse<String> still = query(charlie(), "rust-guide", "ownership");
                assertThat(still.statusCode()).as(b.getKey()).isEqualTo(403);
                assertThat(auditRows(traceId(still)).get(0)).containsEntry("reason", "not_in_allowed_groups");
                assertThat(query(token("rl", List.of("rust-learners"), List.of("viewer")), "rust-guide",
                        "ownership").statusCode()).as("the old grants still apply").isEqualTo(200);
                assertThat(rejectedAccessPolicies()).isEqualTo(1);
                assertThat(policyHealth.health().getStatus().getCode()).isEqualTo("DEGRADED");
                assertThat(policyHealth.health().getDetails().get(policy.toString()).toString())
                        .contains("previous version in force", policy + (b.getValue().startsWith(":") ? "" : ": "),
                                b.getValue());
            }

            edit(policy, original, n);
            assertThat(query(charlie(), "rust-guide", "ownership").statusCode()).as("the fixed file applies")
                    .isEqualTo(200);
            assertThat(rejectedAccessPolicies()).isEqualTo(0);
            assertThat(policyHealth.health().getDetails()).doesNotContainKey(policy.toString());
        } finally {
            Files.writeString(policy, original);
        }
        assertThat(query(charlie(), "rust-guide", "ownership").statusCode()).isEqualTo(200);
    }

    @Autowired io.poimen.memory.health.PolicyFilesHealthIndicator policyHealth;

    static void edit(Path file, String text, int step) throws IOException {
        Files.writeString(file, text);
        // a later modification time for every edit, whatever the file system's time granularity
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().plusSeconds(step)));
    }

    @Autowired io.micrometer.core.instrument.MeterRegistry meters;

    /** The gauge {@code poimen.policy.rejected{file="_access.yaml"}} (its Prometheus name: poimen_policy_rejected). */
    int rejectedAccessPolicies() {
        return (int) meters.get("poimen.policy.rejected").tag("file", PolicyStore.POLICY_FILE).gauge().value();
    }

    @Test
    void aProjectWithoutPolicyIsDeniedAndHealthNeedsNoToken() throws Exception {
        Files.createDirectories(VAULT.resolve("projects/no-policy"));
        HttpResponse<String> r = get(charlie(), "/memory/access/check?path=projects/no-policy/x.md");
        assertThat(json(r).path("read").path("reason").asText()).as("not told why").isEqualTo("denied");
        assertThat(auditRows(traceId(r))).anySatisfy(row -> assertThat(row)
                .containsEntry("reason", "project_default_deny"));
        assertThat(get(null, "/actuator/health").statusCode()).isEqualTo(200);
        assertThat(get(null, "/memory/audit").statusCode()).isEqualTo(401);
    }

    @Test
    void theCallerComesFromTheTokenNotFromClientHeaders() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + alice())
                .header("poimenCaller", "bob").header("X-User", "bob").header("groups", "platform-team")
                .POST(HttpRequest.BodyPublishers.ofString("{\"project\":\"poimen\",\"query\":\"pods\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(auditRows(traceId(r))).singleElement().satisfies(row ->
                assertThat(row).containsEntry("user_id", "alice"));
    }
}
