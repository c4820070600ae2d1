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
        "camel.main.routes-reload-enabled=false", "spring.datasource.hikari.connection-timeout=1000",
        "poimen.query.store-cool-down-ms=2000", "poimen.query.embedding-cool-down-ms=2000"})
class ExternalQueryRouteTest extends QueryRouteContractTest {

    private static String databaseUrl;

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("query_contract");
        databaseUrl = url;
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }

    @Test
    void postgresDownAnswersFromOpenSearchAndTfIdfWithTheNoteStoreAndSemanticBranchDegraded() throws Exception {
        String body = "{\"project\":\"poimen\",\"query\":\"how do I fix a pod in CrashLoopBackOff\"}";
        JsonNode healthy = query(body);
        assertThat(healthy.path("degraded")).isEmpty();
        TestPostgres.refuseConnections(databaseUrl, true);
        try {
            for (int i = 0; i < 3; i++) { // the first meets the failure, the next ones the cool-down
                JsonNode r = query(body);
                assertThat(r.has("error")).as(r.toString()).isFalse();
                assertThat(r.path("degraded").toString()).contains("\"notes\"").contains("\"semantic\"");
                assertThat(r.path("degraded_reasons").path("notes").asText()).contains("opensearch");
                assertThat(paths(r)).contains("projects/poimen/debugging/pod-crashes.md");
                JsonNode top = r.path("results").get(0);
                assertThat(top.path("text").asText()).isNotBlank();
                assertThat(top.path("breakdown").path("branches").has("semantic")).isFalse();
                assertThat(r.path("context").path("tokens_used").asInt()).isPositive();
            }
            org.apache.camel.Exchange reindex = producer.request("direct:admin-reindex", e -> { });
            assertThat(reindex.getMessage().getHeader(org.apache.camel.Exchange.HTTP_RESPONSE_CODE)).isEqualTo(503);
            assertThat(reindex.getMessage().getBody(String.class)).contains("store_unavailable");
        } finally {
            TestPostgres.refuseConnections(databaseUrl, false);
        }
        Thread.sleep(2_100); // both cool-downs over: the next query uses PostgreSQL again
        JsonNode back = query(body);
        assertThat(back.path("degraded")).as(back.toString()).isEmpty();
        assertThat(paths(back)).isEqualTo(paths(healthy));
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
