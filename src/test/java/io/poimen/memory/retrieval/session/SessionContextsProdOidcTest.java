package io.poimen.memory.retrieval.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import io.poimen.memory.retrieval.select.SessionContexts;
import io.poimen.memory.testsupport.ExampleVault;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.io.IOException;
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
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Session contexts on the production stores (PostgreSQL + pgvector, OpenSearch) with OIDC on: the previous context
 * of a session lives in {@code session_contexts} (any replica continues it), and a turn never carries a chunk of it
 * that the caller may not read now: a policy edit between two turns takes the chunk out of the next context and of
 * its reused prefix.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=session-contexts",
        "poimen.data.dir=target/it-sessions/data-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false"})
class SessionContextsProdOidcTest {
    static final String ISSUER = "poimen-sessions";
    static final Path VAULT = Path.of("target/it-sessions/vault-" + UUID.randomUUID());
    static final String RESTRICTED = "projects/poimen/restricted/zorbquake-restarts.md";
    static final Path POLICY = VAULT.resolve("projects/poimen/restricted/_access.yaml");
    static final String QUESTION = "zorbquake pod restart procedure after a crash";
    static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort int port;
    @Autowired JdbcTemplate jdbc;
    @Autowired SessionContexts sessions;

    @DynamicPropertySource
    static void storesIssuerAndVault(DynamicPropertyRegistry registry) throws IOException {
        OAUTH.start();
        ExampleVault.copyTo(VAULT);
        Files.createDirectories(POLICY.getParent());
        Files.writeString(POLICY, "access_level: group\nallowed_groups: [platform-team]\n");
        Files.writeString(VAULT.resolve(RESTRICTED), "# Zorbquake restarts\n\n## Zorbquake pod restart procedure\n\n"
                + "After a zorbquake crash, restart the zorbquake pod with kubectl rollout restart and check that "
                + "the zorbquake pod is ready again.\n");
        String url = TestPostgres.freshDatabaseUrl("session_contexts_http");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        registry.add("poimen.vault.path", VAULT::toString);
    }

    @AfterAll
    static void stopIssuer() {
        OAUTH.shutdown();
    }

    static String charlie() {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, "charlie",
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", List.of("platform-team"),
                "roles", List.of("viewer")), 3600)).serialize();
    }

    JsonNode turn(String session) throws Exception {
        HttpResponse<String> a = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/memory/query")).header("Authorization", "Bearer " + charlie())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(Map.of("project", "poimen", "query", QUESTION, "top_k", 5,
                                "session_id", session)))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(a.statusCode()).as(a.body()).isEqualTo(200);
        return JSON.readTree(a.body());
    }

    static List<String> context(JsonNode answer) {
        List<String> ids = new ArrayList<>();
        answer.path("context").path("chunks").forEach(c -> ids.add(c.asText()));
        return ids;
    }

    @Test
    void aPolicyEditBetweenTurnsTakesTheChunkOutOfTheNextContextAndItsReusedPrefix() throws Exception {
        String session = "policy-edit-" + UUID.randomUUID();
        JsonNode first = turn(session);
        assertThat(context(first)).as("readable now: in the context").anyMatch(id -> id.startsWith(RESTRICTED));
        assertThat(jdbc.queryForObject("select count(*) from session_contexts", Long.class))
                .as("the session is kept in the database, where every replica reads it").isEqualTo(1);
        JsonNode same = turn(session);
        assertThat(context(same)).isEqualTo(context(first));
        assertThat(same.path("context").path("prefix_reuse").asDouble()).as("same question, same prompt")
                .isEqualTo(1.0);

        Files.writeString(POLICY, "access_level: group\nallowed_groups: [ml-team]\n");
        JsonNode after = turn(session);
        assertThat(context(after)).as("no longer readable: not carried from the stored context")
                .noneMatch(id -> id.startsWith(RESTRICTED)).isNotEmpty();
        assertThat(after.toString()).doesNotContain(RESTRICTED, "zorbquake pod is ready");
        assertThat(after.path("context").path("prefix_reuse").asDouble())
                .as("the prompt no longer starts as the stored one did").isLessThan(1.0);

        JsonNode next = turn(session);
        assertThat(context(next)).isEqualTo(context(after));
        assertThat(next.path("context").path("prefix_reuse").asDouble()).as("continued from the edited turn")
                .isEqualTo(1.0);
        assertThat(sessions).isInstanceOf(JdbcSessionContexts.class);
    }
}
