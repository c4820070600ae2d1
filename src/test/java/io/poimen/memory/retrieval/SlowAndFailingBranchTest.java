package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.index.ingest.IngestReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.AdviceWith;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.apache.camel.test.spring.junit5.UseAdviceWith;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The real query route with two of its branch routes advised: BM25 takes longer than the multicast timeout,
 * TF-IDF throws. The answer comes at the timeout, from the semantic branch, naming both in {@code degraded}.
 */
@CamelSpringBootTest
@UseAdviceWith
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-slow-failing/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:slow-failing;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false", "camel.main.routes-reload-enabled=false",
        "poimen.query.branch-timeout-ms=" + SlowAndFailingBranchTest.TIMEOUT_MS})
class SlowAndFailingBranchTest {
    static final int TIMEOUT_MS = 600;
    static final int SLOW_MS = 5000;

    @Autowired CamelContext camel;
    @Autowired ProducerTemplate producer;

    @Test
    void aSlowBranchTimesOutAndAFailingOneDegradesWhileTheOthersAnswer() throws Exception {
        AdviceWith.adviceWith(camel, "branch-lexical", a -> a.weaveAddFirst().delay(SLOW_MS));
        AdviceWith.adviceWith(camel, "branch-tfidf",
                a -> a.weaveAddLast().throwException(new IllegalStateException("tfidf index closed")));
        camel.start();
        producer.requestBody("direct:ingest", Path.of("examples/vault"), IngestReport.class);
        query(); // warm up: the first query loads the embedding model

        long t0 = System.nanoTime();
        JsonNode r = query();
        long tookMs = (System.nanoTime() - t0) / 1_000_000;

        assertThat(r.path("strategy").asText()).isEqualTo("hybrid");
        assertThat(r.path("degraded_reasons").path("lexical").asText()).isEqualTo(QueryFusion.LATE);
        assertThat(r.path("degraded_reasons").path("tfidf").asText())
                .isEqualTo("IllegalStateException: tfidf index closed");
        assertThat(r.path("degraded_reasons").has("semantic")).isFalse();
        assertThat(r.path("results").get(0).path("path").asText()).isEqualTo("projects/poimen/debugging/pod-crashes.md");
        assertThat(r.path("results").get(0).path("breakdown").path("branches").fieldNames()).toIterable()
                .containsExactly("semantic");
        assertThat(tookMs).as("answered at the timeout, not after the slow branch").isLessThan(SLOW_MS - 1000);
        assertThat(r.path("timings_ms").path("branches").asDouble()).isGreaterThanOrEqualTo(TIMEOUT_MS - 50);
    }

    private JsonNode query() throws Exception {
        String body = "{\"project\":\"poimen\",\"query\":\"how do I fix a pod in CrashLoopBackOff\"}";
        return new ObjectMapper().readTree(producer.requestBody("direct:query",
                body.getBytes(StandardCharsets.UTF_8), String.class));
    }
}
