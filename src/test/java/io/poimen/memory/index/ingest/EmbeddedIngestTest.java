package io.poimen.memory.index.ingest;

import dev.langchain4j.model.embedding.EmbeddingModel;
import java.nio.file.Path;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.springframework.boot.test.context.SpringBootTest;

/** Ingest on the embedded default: H2 file database and Lucene indexes on local disk. */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-embedded/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:embedded-ingest;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=false",
        "camel.main.routes-reload-enabled=false"})
class EmbeddedIngestTest extends IngestContractTest {

    @Override
    Path vault() {
        return Path.of("target/it-embedded/vault");
    }
}
