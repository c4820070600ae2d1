package io.poimen.memory.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/** The OpenAPI document of the REST routes and the Prometheus scrape, served on the embedded default. */
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

    @Test
    void prometheusScrapeListsTheRetrievalMeters() {
        ResponseEntity<String> response = http.getForEntity("/actuator/prometheus", String.class);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getBody()).contains("poimen_ingest_lag_seconds").contains("poimen_query_fusion_seconds")
                .contains("cache_gets_total{cache=\"query-embeddings\"")
                .contains("poimen_query_embedding_cache_hit_ratio");
        assertThat(response.getHeaders().getFirst(io.poimen.memory.security.TraceIds.RESPONSE_HEADER)).matches("[0-9a-f]{32}");
    }
}
