package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.poimen.memory.grc.GrcTestSupport;
import io.poimen.memory.testsupport.HostileRequests;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hub on the embedded default, on a random port, serving the real {@code routes/}, with the example vault
 * ingested at start. Edits through review are real too, set up as in {@link GrcTestSupport}: the vault is a clone of
 * a bare repository on disk ({@link #REMOTE}) and {@link #FORGEJO} (WireMock) answers Forgejo's API. Subclasses with
 * the same configuration share one context. Plain {@code @SpringBootTest}: {@code @CamelSpringBootTest} would hold
 * Camel back until the test starts, and the ingest at start needs it running.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.data.dir=target/it-web/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:web-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
public abstract class HubWebTestBase {
    /** Own remote and vault clone, apart from the GRC tests' (they push to main and sync). */
    protected static final Path GIT_ROOT = Path.of("target/it-web/git-" + UUID.randomUUID()).toAbsolutePath();
    protected static final Path REMOTE = GIT_ROOT.resolve("remote.git");
    protected static final WireMockServer FORGEJO =
            new WireMockServer(WireMockConfiguration.options().dynamicPort());
    protected static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    protected int port;

    protected String base() {
        return "http://127.0.0.1:" + port;
    }

    @DynamicPropertySource
    static void gitAndForgejo(DynamicPropertyRegistry registry) throws Exception {
        GrcTestSupport.gitRemoteAndForgejo(registry, GIT_ROOT, FORGEJO);
    }

    /** A raw request over a new socket, every header as written; {@code Connection: close}. */
    protected HostileRequests.Answer send(String method, String path, String host, String contentType, byte[] body,
                                          String... headers) throws Exception {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        return HostileRequests.exchange(port, out.toByteArray());
    }

    protected HostileRequests.Answer post(String path, String contentType, String body, String... headers)
            throws Exception {
        return send("POST", path, "127.0.0.1:" + port, contentType, body.getBytes(StandardCharsets.UTF_8), headers);
    }

    /** Asserts the status and the API's JSON error shape {@code {error, message}}. */
    protected static JsonNode error(HostileRequests.Answer a, int status) throws Exception {
        assertThat(a.status()).as(a.text()).isEqualTo(status);
        assertThat(a.headers().get("content-type")).startsWith("application/json");
        JsonNode body = JSON.readTree(a.body());
        assertThat(body.path("error").isTextual()).as(a.text()).isTrue();
        assertThat(body.path("message").isTextual()).as(a.text()).isTrue();
        return body;
    }
}
