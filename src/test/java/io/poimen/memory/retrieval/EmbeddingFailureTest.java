package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.output.Response;
import io.poimen.memory.index.ingest.IngestReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** A failing embedding model degrades the semantic branch; later queries route to lexical search. */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-embedding-failure/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:embedding-failure;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false", "camel.main.routes-reload-enabled=false"})
class EmbeddingFailureTest {
    static final AtomicBoolean BROKEN = new AtomicBoolean();

    @Autowired ProducerTemplate producer;

    @Test
    void semanticBranchDegradesThenQueriesRouteLexical() throws Exception {
        producer.requestBody("direct:ingest", Path.of("examples/vault"), IngestReport.class);
        BROKEN.set(true);
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

    @TestConfiguration
    static class BreakableModel {
        @Bean
        @Primary
        EmbeddingModel breakableEmbeddingModel() {
            EmbeddingModel real = new AllMiniLmL6V2QuantizedEmbeddingModel();
            return new EmbeddingModel() {
                @Override
                public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                    if (BROKEN.get()) {
                        throw new IllegalStateException("model offline");
                    }
                    return real.embedAll(segments);
                }

                @Override
                public int dimension() {
                    return real.dimension();
                }
            };
        }
    }
}
