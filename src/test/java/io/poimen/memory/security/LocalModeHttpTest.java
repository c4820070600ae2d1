package io.poimen.memory.security;

import io.poimen.memory.security.auth.TraceIds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The embedded default ({@code poimen.security.mode=none} on loopback), as {@code mvn spring-boot:run} starts it:
 * queries work without a token and nothing is checked or audited, but vault paths are still checked.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.data.dir=target/it-local/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:local-mode-it;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "camel.main.routes-reload-enabled=false"})
class LocalModeHttpTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();
    @LocalServerPort int port;
    @Autowired JdbcTemplate jdbc;

    HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Test
    void queriesNeedNoTokenAndAreNotAuditedButPathsAreStillChecked() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/memory/query"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"project\":\"poimen\",\"query\":\"kubernetes debugging\"}")));

        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode body = new ObjectMapper().readTree(r.body());
        assertThat(body.path("results").size()).isPositive();
        assertThat(r.headers().firstValue(TraceIds.RESPONSE_HEADER)).get().asString().matches("[0-9a-f]{32}");
        assertThat(jdbc.queryForObject("select count(*) from rbac_audit_log", Integer.class)).isZero();

        HttpResponse<String> bad = send(HttpRequest.newBuilder(uri("/memory/access/check?path=..%2F..%2Fetc%2Fpasswd")));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"bad_path\"");

        HttpResponse<String> ok = send(HttpRequest.newBuilder(uri("/memory/access/check?path=projects/poimen/index.md")));
        assertThat(new ObjectMapper().readTree(ok.body()).path("read").path("reason").asText()).isEqualTo("auth_disabled");
        assertThat(send(HttpRequest.newBuilder(uri("/memory/audit"))).statusCode()).isEqualTo(200);
    }
}
