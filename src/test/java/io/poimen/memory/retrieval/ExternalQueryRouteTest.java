package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The query route on PostgreSQL+pgvector and OpenSearch, and what happens when OpenSearch goes down. */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=query-contract", "poimen.vault.ingest-on-startup=false",
        "camel.main.routes-reload-enabled=false"})
class ExternalQueryRouteTest extends QueryRouteContractTest {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("query_contract");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }

    @Test
    void openSearchDownDegradesTheLexicalBranchAndTheOthersStillAnswer() throws Exception {
        String body = "{\"project\":\"poimen\",\"query\":\"how do I fix a pod in CrashLoopBackOff\"}";
        assertThat(query(body).path("degraded")).isEmpty();
        TestOpenSearch.stop();
        try {
            JsonNode r = query(body);
            assertThat(r.has("error")).as(r.toString()).isFalse();
            assertThat(r.path("degraded").get(0).asText()).isEqualTo("lexical");
            assertThat(r.path("degraded_reasons").path("lexical").asText()).isNotBlank();
            assertThat(paths(r)).contains("projects/poimen/debugging/pod-crashes.md");
            assertThat(r.path("results").get(0).path("breakdown").path("branches").has("lexical")).isFalse();
        } finally {
            TestOpenSearch.restart();
        }
        assertThat(query(body).path("degraded")).isEmpty();
    }
}
