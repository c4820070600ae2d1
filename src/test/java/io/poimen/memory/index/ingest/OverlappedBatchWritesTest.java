package io.poimen.memory.index.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.NoteParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * A batch's store writes overlap the next batch's embedding (IngestRoutes: seda:ingest-write), on the production stores:
 * three notes a batch, so the example vault goes through many batches with one write in flight at a time.
 */
@CamelSpringBootTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=overlapped-writes", "poimen.vault.ingest-on-startup=false",
        "poimen.vault.files-per-batch=3", "camel.main.routes-reload-enabled=false"})
@Import(CountingModelConfig.class)
class OverlappedBatchWritesTest {
    private static final Path VAULT = Path.of("target/it-overlapped/vault");

    @Autowired ProducerTemplate producer;
    @Autowired NoteStore notes;
    @Autowired VectorIndex vectors;
    @Autowired LexicalIndex lexical;
    @Autowired TfIdfIndex tfidf;
    @Autowired CountingEmbeddingModel model;

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        String url = TestPostgres.freshDatabaseUrl("overlapped_writes");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
    }

    @BeforeEach
    void freshVault() throws IOException {
        FileSystemUtils.deleteRecursively(VAULT);
        FileSystemUtils.copyRecursively(IngestContractTest.EXAMPLE_VAULT, VAULT);
        model.reset();
    }

    private IngestReport ingest() {
        return producer.requestBody("direct:ingest", VAULT, IngestReport.class);
    }

    @Test
    void everyChunkOfEveryBatchIsStoredOnceInEveryIndexBeforeTheRouteReturns() throws IOException {
        // a fresh vault copy may already be stored from the other test: start from empty stores
        producer.requestBody("direct:ingest", Files.createTempDirectory("empty-vault"), IngestReport.class);
        model.reset();
        long md = IngestContractTest.markdownFiles(VAULT);
        assertThat(md).as("enough notes for several batches of 3").isGreaterThan(9);

        IngestReport report = ingest();

        List<Chunk> stored = notes.allChunks();
        Set<String> ids = new HashSet<>();
        stored.forEach(c -> ids.add(c.id()));
        assertThat(ids).hasSize(stored.size());
        assertThat(report.changed()).isEqualTo(md);
        assertThat(report.chunks()).isEqualTo(stored.size());
        assertThat(model.texts()).as("each chunk embedded once").isEqualTo(stored.size());
        assertThat(vectors.count()).isEqualTo(stored.size());
        assertThat(lexical.count()).isEqualTo(stored.size());
        assertThat(tfidf.size()).isEqualTo(stored.size());
        assertThat(report.stepMillis()).containsKeys("embed", "write", "write-wait", "vectors", "lexical");
        assertThat(lexical.search("CrashLoopBackOff", SearchScope.all(), 3)).isNotEmpty();
    }

    @Test
    void aStoreThatFailsMidRunFailsTheIngestAndTheNextRunRedoesItsNotes() throws IOException {
        ingest();
        List<String> edited = List.of("projects/poimen/tools/kubectl.md", "projects/poimen/memories/ownership.md",
                "projects/poimen/debugging/pod-crashes.md");
        for (String path : edited) {
            Files.writeString(VAULT.resolve(path), "\n## Quillfeather\n\nThe quillfeather marker of " + path + ".\n",
                    StandardOpenOption.APPEND);
        }
        TestOpenSearch.stop();
        try {
            assertThatThrownBy(this::ingest).as("a lexical write that fails is reported, not swallowed")
                    .isInstanceOf(RuntimeException.class);
        } finally {
            TestOpenSearch.restart();
        }
        for (String path : edited) {
            String now = NoteParser.contentHash(Files.readAllBytes(VAULT.resolve(path)));
            assertThat(notes.note(path)).get().as("row of %s keeps its old hash", path)
                    .satisfies(row -> assertThat(row.contentHash()).isNotEqualTo(now));
        }

        IngestReport again = ingest();

        assertThat(again.changed()).isEqualTo(edited.size());
        int stored = notes.allChunks().size();
        assertThat(vectors.count()).isEqualTo(stored);
        assertThat(lexical.count()).isEqualTo(stored);
        assertThat(tfidf.size()).isEqualTo(stored);
        assertThat(lexical.search("quillfeather", SearchScope.all(), 10)).hasSize(edited.size());
    }
}
