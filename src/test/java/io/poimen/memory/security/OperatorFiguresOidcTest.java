package io.poimen.memory.security;

import io.poimen.memory.security.auth.TraceIds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Vault-wide figures are operator data (security item 8), over HTTP in oidc mode with the actuator on the API port:
 * {@code GET /memory/cluster} and the metrics endpoints answer an operator (the {@code admin} role or the
 * {@code memory:admin} permission) and 403 JSON to anyone else; {@code GET /memory/sync/status} and
 * {@code GET /memory/projects} answer everyone, without {@code notes_reindexed} and {@code cache_alignment} for a
 * caller who is not an operator, so another caller's query moves nothing a reader sees. Every check is audited under
 * the response's trace id.
 */
@AutoConfigureObservability // the Prometheus endpoint, which Spring Boot's tests leave out otherwise
class OperatorFiguresOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();

    @Autowired JdbcTemplate jdbc;

    /** An operator by role. */
    static String olga() {
        return token("olga", List.of("platform-team"), List.of("admin"));
    }

    /** An operator by permission: a viewer with {@code memory:admin}. */
    static String piet() {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, "piet",
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", List.of("platform-team"),
                "roles", List.of("viewer"), "permissions", List.of("memory:admin")), 3600)).serialize();
    }

    HttpResponse<String> anonymous(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The request's admin decision is in the audit log under its trace id. */
    void assertAudited(HttpResponse<String> r, String user, String decision) {
        String trace = r.headers().firstValue(TraceIds.RESPONSE_HEADER).orElseThrow();
        assertThat(jdbc.queryForList("select decision from rbac_audit_log where trace_id = ? and user_id = ? "
                + "and action = 'admin'", String.class, trace, user)).as(r.uri() + " audited").containsExactly(decision);
    }

    void assertForbiddenJson(HttpResponse<String> r, String... absent) throws Exception {
        assertThat(r.statusCode()).as(r.uri() + " " + r.body()).isEqualTo(403);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).contains("application/json");
        assertThat(JSON.readTree(r.body()).path("error").asText()).isEqualTo("forbidden");
        assertThat(r.body()).doesNotContain(absent);
    }

    @Test
    void theClusterStatusIsForOperatorsAndA403JsonAnswerForAReader() throws Exception {
        HttpResponse<String> reader = get(charlie(), "/memory/cluster");
        assertForbiddenJson(reader, "tfidf_chunks", "graph_notes");
        assertAudited(reader, "charlie", "deny");
        for (String operator : List.of(olga(), piet())) {
            HttpResponse<String> r = get(operator, "/memory/cluster");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).path("tfidf_chunks").asLong()).isPositive();
            assertThat(JSON.readTree(r.body()).path("graph_notes").asLong()).isPositive();
        }
        assertAudited(get(olga(), "/memory/cluster"), "olga", "allow");
    }

    @Test
    void theSyncStatusShowsTheReindexedNoteCountToOperatorsOnly() throws Exception {
        HttpResponse<String> reader = get(charlie(), "/memory/sync/status");
        assertThat(reader.statusCode()).as(reader.body()).isEqualTo(200);
        JsonNode status = JSON.readTree(reader.body());
        assertThat(status.has("enabled")).isTrue();
        assertThat(status.has("files_changed")).isTrue();
        assertThat(status.has("notes_reindexed")).as(reader.body()).isFalse();
        assertAudited(reader, "charlie", "deny");
        HttpResponse<String> operator = get(olga(), "/memory/sync/status");
        assertThat(JSON.readTree(operator.body()).has("notes_reindexed")).as(operator.body()).isTrue();
        assertAudited(operator, "olga", "allow");
    }

    @Test
    void anotherCallersQueryMovesNothingInTheProjectsAReaderSees() throws Exception {
        HttpResponse<String> before = get(charlie(), "/memory/projects");
        assertThat(before.statusCode()).as(before.body()).isEqualTo(200);
        HttpResponse<String> q = post(dave(), "/memory/query",
                "{\"project\":\"poimen\",\"query\":\"why do pods crash after a deploy\"}");
        assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
        HttpResponse<String> after = get(charlie(), "/memory/projects");
        assertThat(after.body()).isEqualTo(before.body());
        // what the web UI shows of a project (its name and readable notes) is there
        JsonNode projects = JSON.readTree(after.body()).path("projects");
        assertThat(projects.findValuesAsText("name")).contains("poimen");
        projects.forEach(p -> assertThat(p.path("notes").asInt()).isPositive());
        assertThat(after.body()).doesNotContain("cache_alignment", "tokens_served");
        assertAudited(after, "charlie", "deny");

        JsonNode forOperator = JSON.readTree(get(olga(), "/memory/projects").body()).path("projects");
        JsonNode poimen = null;
        for (JsonNode p : forOperator) {
            if (p.path("name").asText().equals("poimen")) {
                poimen = p.path("cache_alignment");
            }
        }
        assertThat(poimen).isNotNull();
        assertThat(poimen.path("tokens_served").asLong()).isPositive();
    }

    @Test
    void metricsOnTheApiPortNeedAnOperatorBearer() throws Exception {
        for (String path : List.of("/actuator/prometheus", "/actuator/metrics",
                "/actuator/metrics/poimen.rbac.decisions")) {
            HttpResponse<String> none = anonymous(path);
            assertThat(none.statusCode()).as(path).isEqualTo(401);
            assertThat(JSON.readTree(none.body()).path("error").asText()).isEqualTo("unauthorized");
            HttpResponse<String> reader = get(charlie(), path);
            assertForbiddenJson(reader, "poimen_", "poimen.");
            assertAudited(reader, "charlie", "deny");
            HttpResponse<String> operator = get(piet(), path);
            assertThat(operator.statusCode()).as(path + " " + operator.body()).isEqualTo(200);
            assertThat(operator.body()).contains("poimen");
            assertAudited(operator, "piet", "allow");
        }
        assertThat(get(olga(), "/actuator/prometheus").body()).contains("poimen_rbac_decisions_total");
        // health stays public
        assertThat(anonymous("/actuator/health").statusCode()).isEqualTo(200);
    }
}
