package io.poimen.memory.index.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.LexicalIndexContract;
import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.Test;
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

    /**
     * Writes do not wait for a refresh; the run makes them searchable before {@code direct:ingest} returns, also on
     * an index the node refreshes only once an hour.
     */
    @Test
    void aChangeIsSearchableWhenTheIngestReturnsWithoutThePeriodicRefresh() throws IOException {
        TestOpenSearch.setRefreshInterval("ingest-contract", "1h");
        try {
            Files.writeString(vault().resolve("projects/poimen/tools/kubectl.md"),
                    "\n## Wombat flag\n\nThe wombatrix option prints diagnostics.\n", StandardOpenOption.APPEND);
            Files.delete(vault().resolve("projects/poimen/memories/ownership.md"));
            long ownership = lexical.search("ownership", SearchScope.all(), 100).stream()
                    .filter(h -> h.chunkId().startsWith("projects/poimen/memories/ownership.md#")).count();
            assertThat(ownership).isPositive();

            ingest();

            assertThat(lexical.search("wombatrix", SearchScope.all(), 5)).singleElement()
                    .satisfies(h -> assertThat(h.chunkId()).startsWith("projects/poimen/tools/kubectl.md#"));
            assertThat(lexical.search("ownership", SearchScope.all(), 100))
                    .noneMatch(h -> h.chunkId().startsWith("projects/poimen/memories/ownership.md#"));
        } finally {
            TestOpenSearch.setRefreshInterval("ingest-contract", null);
        }
    }

    /**
     * A run that failed during a bulk load leaves the periodic refresh off and chunks no search sees yet: the next
     * run still replaces such a note completely (the old chunks are deleted by query, which finds only what a
     * search sees), and gives the index its refresh interval back.
     */
    @Test
    void theNextRunReplacesWhatARunThatFailedDuringABulkLoadWrote() throws IOException {
        String path = "projects/poimen/tools/kubectl.md";
        TestOpenSearch.setRefreshInterval("ingest-contract", "-1");
        try {
            // the failed run's write: a chunk of the note that is not in its current version
            lexical.upsert(List.of(LexicalIndexContract.chunk(path, 99,
                    "Gone", List.of("Gone"), "The zebrastale section the failed run wrote.",
                    List.of())));
            Files.writeString(vault().resolve(path), "\n## Okapi flag\n\nThe okapitrix option.\n",
                    StandardOpenOption.APPEND);

            ingest();

            assertThat(lexical.search("okapitrix", SearchScope.all(), 5)).singleElement()
                    .satisfies(h -> assertThat(h.chunkId()).startsWith(path + "#"));
            assertThat(lexical.search("zebrastale", SearchScope.all(), 5)).isEmpty();
            assertThat(((OpenSearchLexicalIndex) lexical).refreshInterval())
                    .isNull();
        } finally {
            TestOpenSearch.setRefreshInterval("ingest-contract", null);
        }
    }

    @Override
    Path vault() {
        return Path.of("target/it-external/vault");
    }
}
