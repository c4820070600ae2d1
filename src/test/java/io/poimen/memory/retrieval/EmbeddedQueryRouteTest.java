package io.poimen.memory.retrieval;

import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.springframework.boot.test.context.SpringBootTest;

/** The query route on the embedded default (H2 + Lucene). */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-query-embedded/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:query-embedded;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false", "camel.main.routes-reload-enabled=false"})
class EmbeddedQueryRouteTest extends QueryRouteContractTest {
}
