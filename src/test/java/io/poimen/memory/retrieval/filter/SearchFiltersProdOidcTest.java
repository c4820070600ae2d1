package io.poimen.memory.retrieval.filter;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link SearchFiltersOidcTest} on the production stores: PostgreSQL + pgvector (notes, front matter, vectors) and
 * OpenSearch (BM25), with OIDC on: every branch of both stores searches only the filtered notes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=search-filters",
        "poimen.data.dir=target/it-filters/data-prod-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
class SearchFiltersProdOidcTest extends SearchFiltersOidcTest {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("search_filters");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }
}
