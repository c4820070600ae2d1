package io.poimen.memory.mcp;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link NoteNamesOidcTest} on the prod profile: the aliases the names resolve by come from PostgreSQL's note rows,
 * the reads and the MCP tools run against PostgreSQL + pgvector and an OpenSearch node, OIDC on.
 */
@ActiveProfiles("prod")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.opensearch.index=note-names",
        "poimen.data.dir=target/it-oidc-hub/data-prod-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
class NoteNamesProdOidcTest extends NoteNamesOidcTest {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("note_names");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }
}
