package io.poimen.memory.agents;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AgentFeedPrivacyHttpTest} on the production stores: PostgreSQL + pgvector (notes, vectors, the agent log and
 * the audit table) and an OpenSearch node (BM25), with OIDC on.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.security.clock-skew=PT1S",
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=agent-feed",
        "poimen.data.dir=target/it-feed/data-prod-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
class AgentFeedPrivacyProdHttpTest extends AgentFeedPrivacyHttpTest {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("agent_feed");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }
}
