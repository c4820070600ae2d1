package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hub as a new user starts it: the embedded default, no git host, no vault path set. Its vault is the example
 * vault copied into the data folder and made a git repository at start; drafts are reviewed on the hub. Subclasses
 * share one context (and one vault: each test edits notes of its own).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:review-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false"})
public abstract class LocalReviewTestSupport {
    /** This JVM's data folder: a fresh vault (and indexes) on every run. */
    static final Path DATA = Path.of("target/it-review/data-" + UUID.randomUUID()).toAbsolutePath();
    static final ObjectMapper JSON = new ObjectMapper();

    @Autowired protected TestRestTemplate http;
    @LocalServerPort protected int port;

    /** The vault folder of this hub: the seeded copy in the data folder. */
    protected static Path vault() {
        return DATA.resolve("vault");
    }

    @DynamicPropertySource
    static void dataFolder(DynamicPropertyRegistry registry) {
        // a subclass that needs a hub of its own registers poimen.test.data-dir (its dynamic properties cannot
        // replace this one's)
        registry.add("poimen.data.dir", () -> "${poimen.test.data-dir:" + DATA + "}");
    }

    protected ResponseEntity<String> post(String path, Object body) throws Exception {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return http.exchange(path, HttpMethod.POST, new HttpEntity<>(JSON.writeValueAsString(body), headers),
                String.class);
    }

    protected JsonNode json(ResponseEntity<String> r) throws Exception {
        return JSON.readTree(r.getBody());
    }

    /** The note as the UI reads it: content and version. */
    protected JsonNode read(String path) throws Exception {
        ResponseEntity<String> r = http.getForEntity("/memory/vault/file?path=" + path, String.class);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(200);
        return json(r);
    }

    protected static ObjectNode op(String op, String path, String... fields) {
        ObjectNode o = JSON.createObjectNode().put("op", op).put("path", path);
        for (int i = 0; i + 1 < fields.length; i += 2) {
            o.put(fields[i], fields[i + 1]);
        }
        return o;
    }

    /** A draft request: operations, message, and the versions the editor read. */
    protected static ObjectNode draft(String message, Map<String, String> bases, ObjectNode... ops) {
        ObjectNode body = JSON.createObjectNode().put("message", message);
        ArrayNode list = body.putArray("operations");
        for (ObjectNode o : ops) {
            list.add(o);
        }
        ObjectNode versions = body.putObject("base_versions");
        bases.forEach(versions::put);
        return body;
    }

    protected ResponseEntity<String> review(String id, String decision, String comment) throws Exception {
        return post("/memory/grc/drafts/" + id + "/" + decision,
                comment == null ? Map.of() : Map.of("comment", comment));
    }

    protected static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
