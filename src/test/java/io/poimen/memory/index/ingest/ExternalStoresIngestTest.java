package io.poimen.memory.index.ingest;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.nio.file.Path;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Ingest on the production stores: a real PostgreSQL with pgvector and a real OpenSearch node. */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=ingest-contract", "poimen.vault.ingest-on-startup=false",
        "camel.main.routes-reload-enabled=false"})
class ExternalStoresIngestTest extends IngestContractTest {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("ingest_contract");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }

    @Override
    Path vault() {
        return Path.of("target/it-external/vault");
    }
}
