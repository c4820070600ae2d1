package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.bench.faults.EmbeddingFaults;
import io.poimen.memory.index.ingest.IngestReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A failing embedding model degrades the semantic branch; later queries route to lexical search. The hub's own
 * models (as configured) fail through the fault hook of the load runs ({@code bench serve}) while its file exists.
 */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-embedding-failure/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:embedding-failure;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false", "camel.main.routes-reload-enabled=false"})
class EmbeddingFailureTest {
    static final Path FAILURE_FILE = Path.of("target/it-embedding-failure/fails-" + UUID.randomUUID());

    @Autowired ProducerTemplate producer;

    @Test
    void semanticBranchDegradesThenQueriesRouteLexical() throws Exception {
        producer.requestBody("direct:ingest", Path.of("examples/vault"), IngestReport.class);
        Files.createDirectories(FAILURE_FILE.getParent());
        Files.createFile(FAILURE_FILE);
        String body = "{\"project\":\"poimen\",\"query\":\"how do I fix a pod in CrashLoopBackOff\"}";
        JsonNode first = query(body);
        assertThat(first.path("degraded").toString()).contains("semantic");
        assertThat(first.path("degraded_reasons").path("semantic").asText()).contains("model offline");
        assertThat(first.path("results").size()).isPositive();
        JsonNode next = query(body);
        assertThat(next.path("strategy").asText()).isEqualTo("lexical");
        assertThat(next.path("results").get(0).path("path").asText())
                .isEqualTo("projects/poimen/debugging/pod-crashes.md");
    }

    JsonNode query(String body) throws Exception {
        return new ObjectMapper().readTree(producer.requestBody("direct:query",
                body.getBytes(StandardCharsets.UTF_8), String.class));
    }

    @AfterAll
    static void repaired() throws Exception {
        Files.deleteIfExists(FAILURE_FILE);
    }

    @TestConfiguration
    static class Faults {
        @Bean
        static BeanPostProcessor embeddingFaults() {
            return new EmbeddingFaults(FAILURE_FILE);
        }
    }
}
