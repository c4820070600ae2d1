package io.poimen.memory.index.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.poimen.memory.cluster.ClusterRequests;
import io.poimen.memory.cluster.Leadership;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.vault.NoteParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.AdviceWith;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.FileSystemUtils;

/**
 * The code-owned ingest stages of {@link IngestRoutes} on the embedded stores (H2, Lucene, TF-IDF) and the real
 * lease election: {@code ingest-write} is advised to pass each written batch through {@code mock:written} and to
 * run a test's fault before the lexical write or before a batch is marked written.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "poimen.data.dir=target/it-ingest-routes/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:ingest-routes;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.path=target/it-ingest-routes/vault", "poimen.vault.ingest-on-startup=false",
        "poimen.vault.files-per-batch=3", "poimen.cluster.lease=2s", "poimen.cluster.renew=300ms",
        "camel.main.routes-reload-enabled=false"})
class IngestRoutesTest {
    private static final Path VAULT = Path.of("target/it-ingest-routes/vault");
    private static boolean advised;
    private static volatile Consumer<IngestBatch> beforeLexical = b -> { };
    private static volatile Consumer<IngestBatch> beforeWritten = b -> { };

    @Autowired CamelContext camel;
    @Autowired ProducerTemplate producer;
    @Autowired NoteStore notes;
    @Autowired VectorIndex vectors;
    @Autowired LexicalIndex lexical;
    @Autowired TfIdfIndex tfidf;
    @Autowired Leadership leadership;
    @Autowired ClusterRequests requests;
    @Autowired DataSource db;

    private MockEndpoint written;
    private long markdown;

    @BeforeEach
    void freshVaultAndEmptyStores() throws Exception {
        if (!advised) {
            AdviceWith.adviceWith(camel, "ingest-write", a -> {
                a.weaveById("write-lexical").before().process(e -> beforeLexical.accept(batch(e.getMessage())));
                a.weaveById("write-done").before().process(e -> beforeWritten.accept(batch(e.getMessage())))
                        .to("mock:written");
            });
            advised = true;
        }
        beforeLexical = b -> { };
        beforeWritten = b -> { };
        FileSystemUtils.deleteRecursively(VAULT);
        FileSystemUtils.copyRecursively(IngestContractTest.EXAMPLE_VAULT, VAULT);
        markdown = IngestContractTest.markdownFiles(VAULT);
        assertThat(markdown).as("enough notes for several batches of 3").isGreaterThan(9);
        producer.requestBody("direct:ingest", Files.createTempDirectory("empty-vault"), IngestReport.class);
        written = camel.getEndpoint("mock:written", MockEndpoint.class);
        written.reset();
    }

    private static IngestBatch batch(org.apache.camel.Message message) {
        return message.getBody(IngestBatch.class);
    }

    private IngestReport ingest() {
        return producer.requestBody("direct:ingest", VAULT, IngestReport.class);
    }

    private long batches() {
        return (markdown + 2) / 3;
    }

    private void assertEveryStoreHoldsTheSameChunks() {
        int stored = notes.allChunks().size();
        assertThat(stored).isPositive();
        assertThat(vectors.count()).as("vectors").isEqualTo(stored);
        assertThat(lexical.count()).as("lexical").isEqualTo(stored);
        assertThat(tfidf.size()).as("tfidf").isEqualTo(stored);
    }

    private List<String> firstFiles() {
        return written.getReceivedExchanges().stream().map(e -> batch(e.getMessage()).files().get(0)).toList();
    }

    @Test
    @Order(1)
    void everyBatchIsWrittenToEveryStoreInBatchOrderBeforeTheRouteReturns() {
        IngestReport report = ingest();

        assertThat(written.getReceivedCounter()).as("one write per batch").isEqualTo(batches());
        List<String> first = firstFiles();
        assertThat(first).as("written in batch order").isSorted();
        assertThat(report.changed()).isEqualTo(markdown);
        assertThat(notes.notes()).hasSize((int) markdown);
        assertThat(report.chunks()).isEqualTo(notes.allChunks().size());
        assertEveryStoreHoldsTheSameChunks();
        assertThat(report.stepMillis()).containsKeys("parse", "embed", "write", "write-wait", "vectors", "lexical",
                "notes", "tfidf");
    }

    @Test
    @Order(2)
    void aStoreDownMidRunFailsItWithTheStoresErrorWritesNoLaterBatchAndTheNextRunRedoesTheRest() {
        AtomicInteger lexicalWrites = new AtomicInteger();
        beforeLexical = b -> {
            if (lexicalWrites.incrementAndGet() == 2) {
                throw new IllegalStateException("lexical store down");
            }
        };

        assertThatThrownBy(this::ingest).as("the caller gets the store's own error")
                .hasRootCauseInstanceOf(IllegalStateException.class).hasRootCauseMessage("lexical store down");
        assertThat(written.getReceivedCounter()).as("only the batch before the failure").isEqualTo(1);
        List<String> firstBatch = batch(written.getReceivedExchanges().get(0).getMessage()).files();
        assertThat(notes.notes()).as("rows only for the batch every index holds")
                .extracting(NoteStore.NoteRow::path).containsExactlyInAnyOrderElementsOf(firstBatch);
        assertThat(tfidf.size()).isEqualTo(notes.allChunks().size());

        IngestReport again = ingest();

        assertThat(again.changed()).as("every note without a row, once").isEqualTo(markdown - firstBatch.size());
        assertThat(notes.notes()).hasSize((int) markdown);
        assertEveryStoreHoldsTheSameChunks();
    }

    /**
     * The writer's {@code cluster-requests} route (a {@code master:} route) starts the ingest; the lease moves to
     * another replica while a batch is being written. The ingest stages are no {@code master:} routes: every batch
     * is still written to every store (no row ahead of its indexes), and the old writer does not mark the request
     * done, so the new writer redoes it.
     */
    @Test
    @Order(3)
    void aWriterThatLosesItsLeaseMidIngestFinishesEveryBatchWriteAndLeavesTheRequestToTheNewWriter()
            throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(leadership::isLeader);
        JdbcTemplate jdbc = new JdbcTemplate(db);
        await().atMost(Duration.ofSeconds(60)).until(() -> jdbc.queryForObject(
                "select count(*) from cluster_requests where done_at is null", Integer.class) == 0);
        written.reset();
        List<Throwable> requestFailures = new CopyOnWriteArrayList<>();
        camel.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                if (event instanceof CamelEvent.ExchangeFailedEvent failed
                        && "cluster-requests".equals(failed.getExchange().getFromRouteId())) {
                    requestFailures.add(failed.getExchange().getException());
                }
            }
        });
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger batchesWritten = new AtomicInteger();
        beforeWritten = b -> {
            if (batchesWritten.incrementAndGet() == 2) {
                writing.countDown();
                try {
                    assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        requests.record(ClusterRequests.INGEST);
        long request = jdbc.queryForObject("select max(id) from cluster_requests", Long.class);
        assertThat(writing.await(60, TimeUnit.SECONDS)).as("the writer's ingest writes its second batch").isTrue();

        jdbc.update("update cluster_leases set holder = 'another-writer', expires_at = localtimestamp + interval '1' minute");
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> !leadership.isLeader());
            release.countDown();

            await().atMost(Duration.ofSeconds(60)).until(() -> !requestFailures.isEmpty());
            assertThat(requestFailures.get(0)).as("the steps after the ingest")
                    .isInstanceOf(RejectedExecutionException.class);
            assertThat(written.getReceivedCounter()).as("every batch written").isEqualTo(batches());
            assertThat(notes.notes()).hasSize((int) markdown);
            for (String path : List.of("projects/poimen/tools/kubectl.md", "projects/poimen/memories/ownership.md")) {
                String hash = NoteParser.contentHash(Files.readAllBytes(VAULT.resolve(path)));
                assertThat(notes.note(path)).get().extracting(NoteStore.NoteRow::contentHash).isEqualTo(hash);
            }
            assertEveryStoreHoldsTheSameChunks();
            assertThat(jdbc.queryForMap("select done_at, done_by from cluster_requests where id = ?", request))
                    .as("left undone for the new writer").containsEntry("done_at", null);
        } finally {
            release.countDown();
            jdbc.update("update cluster_leases set expires_at = localtimestamp - interval '1' minute");
        }
    }
}
