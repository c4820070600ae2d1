package io.poimen.memory.security;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link RankingSideChannelHttpTest} on the production stores: PostgreSQL + pgvector and an OpenSearch node (BM25
 * with its own index-wide statistics), with OIDC on.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=ranking-side-channel",
        "poimen.data.dir=target/it-ranking/data-prod-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        // hundreds of queries by one caller within a minute: the per-caller limit is not what this test is about
        "poimen.limits.query-per-minute=0",
        "camel.main.routes-reload-enabled=false"})
class RankingSideChannelProdHttpTest extends RankingSideChannelHttpTest {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("ranking_side_channel");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }
}
