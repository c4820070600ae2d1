package io.poimen.memory.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.AbstractBeanFactory;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The OpenAPI document of the REST routes and the Prometheus scrape, served on the embedded default; that server's
 * context holds no benchmark or fault-hook class.
 */
@CamelSpringBootTest
@AutoConfigureObservability
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.data.dir=target/it-openapi/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:openapi-doc;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false",
        "camel.main.routes-reload-enabled=false"})
class OpenApiDocumentTest {

    @Autowired
    TestRestTemplate http;

    @Autowired
    ConfigurableApplicationContext context;

    /** ArchitectureTest keeps the server's code and scan away from io.poimen.bench; here the running hub shows it. */
    @Test
    void theServersContextHoldsNoBenchClass() {
        AbstractBeanFactory beans = (AbstractBeanFactory) context.getBeanFactory();
        Set<String> names = new TreeSet<>(List.of(context.getBeanFactory().getBeanDefinitionNames()));
        names.addAll(List.of(context.getBeanFactory().getSingletonNames()));
        List<String> types = names.stream().map(beans::getType).filter(Objects::nonNull).map(Class::getName).toList();
        assertThat(types).hasSizeGreaterThan(100).noneMatch(type -> type.startsWith("io.poimen.bench."));
        assertThat(beans.getBeanPostProcessors()).isNotEmpty()
                .noneMatch(processor -> processor.getClass().getName().startsWith("io.poimen.bench."));
    }

    @Test
    void documentsTheQueryAndReindexRoutes() throws Exception {
        ResponseEntity<String> response = http.getForEntity("/memory/openapi.json", String.class);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        JsonNode doc = new ObjectMapper().readTree(response.getBody());
        assertThat(doc.path("openapi").asText()).startsWith("3.");
        assertThat(doc.path("info").path("title").asText()).isEqualTo("poimen-memory");
        assertThat(doc.path("paths").has("/memory/query")).as("paths: %s", doc.path("paths")).isTrue();
        assertThat(doc.path("paths").path("/memory/query").has("post")).isTrue();
        assertThat(doc.path("paths").path("/memory/admin/reindex").has("post")).isTrue();
    }

    /**
     * docs/api.md lists every operation ({@code METHOD path}) of the served document and no REST operation that
     * the hub does not serve; what is not a REST route (actuator, {@code /mcp}, the document itself, the event stream) is exempt.
     */
    @Test
    void apiDocListsEveryOperationOfTheDocumentAndNoOther() throws Exception {
        JsonNode doc = new ObjectMapper().readTree(http.getForEntity("/memory/openapi.json", String.class).getBody());
        Set<String> served = new TreeSet<>();
        doc.path("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                .forEachRemaining(verb -> served.add(verb.toUpperCase(java.util.Locale.ROOT) + " " + path.getKey())));
        assertThat(served).as("operations of /memory/openapi.json").hasSizeGreaterThan(10);

        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("`(GET|POST|PUT|PATCH|DELETE) (/[^\\s`?]*)").matcher(Files.readString(Path.of("docs/api.md")));
        while (m.find()) {
            String path = m.group(2);
            // not REST routes: actuator, MCP, the document itself, and the event stream (Server-Sent Events from a
            // Spring MVC controller, AgentStreamController)
            if (!path.startsWith("/actuator") && !Set.of("/mcp", "/memory/openapi.json", "/memory/agents/stream")
                    .contains(path)) {
                documented.add(m.group(1) + " " + path);
            }
        }
        Set<String> undocumented = new TreeSet<>(served);
        undocumented.removeAll(documented);
        Set<String> stale = new TreeSet<>(documented);
        stale.removeAll(served);
        assertThat(undocumented).as("served operations docs/api.md does not list").isEmpty();
        assertThat(stale).as("operations docs/api.md lists that the hub does not serve").isEmpty();
    }

    @Test
    void prometheusScrapeListsTheRetrievalMeters() {
        ResponseEntity<String> response = http.getForEntity("/actuator/prometheus", String.class);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getBody()).contains("poimen_ingest_lag_seconds").contains("poimen_query_fusion_seconds")
                .contains("cache_gets_total{cache=\"query-embeddings\"")
                .contains("poimen_query_embedding_cache_hit_ratio");
        assertThat(response.getHeaders().getFirst(io.poimen.memory.security.auth.TraceIds.RESPONSE_HEADER)).matches("[0-9a-f]{32}");
    }
}
