package io.poimen.memory.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.poimen.memory.config.ClusterProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.jdbc.JdbcNoteStore;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.testsupport.TestH2;
import io.poimen.memory.vault.NoteParser;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.apache.camel.builder.AdviceWith;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.model.FilterDefinition;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The routes of {@link ClusterRoutes} on a real database (H2) and the real lease election
 * ({@link JdbcLeaseClusterService}): the git sync and the ingest they hand work to are advised into mock endpoints.
 */
class ClusterRoutesTest {
    private static final Duration LEASE = Duration.ofMillis(1500);
    private static final Duration RENEW = Duration.ofMillis(300);
    private final DataSource db = TestH2.migrated("cluster_routes");
    private final JdbcTemplate jdbc = new JdbcTemplate(db);
    private final List<DefaultCamelContext> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        nodes.forEach(DefaultCamelContext::stop);
    }

    /** A replica: its lease service and the cluster routes, sync and ingest advised to mock:sync and mock:ingest. */
    private DefaultCamelContext node(String id, boolean git, IndexFollower follower) throws Exception {
        ClusterProperties settings = new ClusterProperties("jdbc", "ns", id, LEASE, RENEW, Duration.ofMillis(100),
                Duration.ofMillis(100));
        DefaultCamelContext camel = new DefaultCamelContext();
        camel.addService(new JdbcLeaseClusterService(new LeaseTable(db), settings));
        camel.addRoutes(new ClusterRoutes(settings, git, new ClusterRequests(db, id), follower));
        AdviceWith.adviceWith(camel, "cluster-requests", a -> {
            a.weaveByToUri("seda:git-sync*").replace().to("mock:sync");
            a.weaveByToUri("direct:ingest").replace().to("mock:ingest");
        });
        AdviceWith.adviceWith(camel, "index-follow",
                a -> a.interceptSendToEndpoint("seda:git-sync*").skipSendToOriginalEndpoint().to("mock:pull"));
        nodes.add(camel);
        return camel;
    }

    private DefaultCamelContext node(String id) throws Exception {
        return node(id, true, follower(id));
    }

    private IndexFollower follower(String id) {
        IndexFollower follower = new IndexFollower(db, new JdbcNoteStore(db, id),
                new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT), new GraphService(), id);
        follower.startAfter(follower.mark());
        return follower;
    }

    private void noteWrittenByTheWriter() throws Exception {
        new JdbcNoteStore(db, "writer").saveAll(List.of(NoteParser.withDefaults().parse("projects/p/a.md",
                        "# Alpha\n\nThe quorumix daemon.\n".getBytes(StandardCharsets.UTF_8))),
                Map.of("projects/p/a.md", Instant.parse("2026-01-01T00:00:00Z")));
    }

    private static long applied(IndexFollower follower) {
        return ((Number) follower.status().get("changes_applied")).longValue();
    }

    private long request(String kind) {
        new ClusterRequests(db, "any-replica").record(kind);
        return jdbc.queryForObject("select max(id) from cluster_requests", Long.class);
    }

    private Map<String, Object> row(long id) {
        return jdbc.queryForMap("select done_at, done_by, error from cluster_requests where id = ?", id);
    }

    private void awaitDone(long id) {
        await().atMost(Duration.ofSeconds(20)).until(() -> row(id).get("done_at") != null);
    }

    private static MockEndpoint mock(DefaultCamelContext camel, String name) {
        return camel.getEndpoint("mock:" + name, MockEndpoint.class);
    }

    @Test
    void theWriterDoesEveryPendingSyncAndReindexOnceThenMarksThemDone() throws Exception {
        long sync = request(ClusterRequests.SYNC);
        long reindex = request(ClusterRequests.INGEST);
        long again = request(ClusterRequests.SYNC);
        DefaultCamelContext a = node("a");
        a.start();

        awaitDone(again);
        for (long id : List.of(sync, reindex, again)) {
            assertThat(row(id)).containsEntry("done_by", "a").containsEntry("error", null);
        }
        assertThat(mock(a, "sync").getReceivedCounter()).as("one sync for both sync requests").isEqualTo(1);
        assertThat(mock(a, "ingest").getReceivedCounter()).isEqualTo(1);
        assertThat(mock(a, "ingest").getReceivedExchanges().get(0).getMessage().getBody())
                .as("a full scan: no list of changed paths").isNull();
    }

    @Test
    void anIngestFailingOnAStoreThatIsDownMarksItsRequestsDoneWithTheErrorAndTheWriterGoesOn() throws Exception {
        DefaultCamelContext a = node("a");
        AtomicInteger ingests = new AtomicInteger();
        mock(a, "ingest").whenAnyExchangeReceived(e -> {
            if (ingests.incrementAndGet() == 1) {
                throw new DataAccessResourceFailureException("notes database down");
            }
        });
        long failed = request(ClusterRequests.INGEST);
        a.start();

        awaitDone(failed);
        assertThat(row(failed)).containsEntry("done_by", "a").containsEntry("error", "notes database down");
        long later = request(ClusterRequests.INGEST);
        awaitDone(later);
        assertThat(row(later)).containsEntry("error", null);
        assertThat(ingests).hasValue(2);
    }

    @Test
    void whileTheRequestTableIsUnreadableTheWriterKeepsPollingAndDoesTheRequestsWhenItIsBack() throws Exception {
        DefaultCamelContext a = node("a");
        AtomicInteger handledFailures = new AtomicInteger();
        a.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                if (event instanceof CamelEvent.ExchangeFailureHandledEvent handled
                        && "cluster-requests".equals(handled.getExchange().getFromRouteId())) {
                    handledFailures.incrementAndGet();
                }
            }
        });
        long pending = request(ClusterRequests.SYNC);
        jdbc.execute("alter table cluster_requests rename to cluster_requests_away");
        try {
            a.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> handledFailures.get() >= 2);
        } finally {
            jdbc.execute("alter table cluster_requests_away rename to cluster_requests");
        }

        awaitDone(pending);
        assertThat(row(pending)).containsEntry("done_by", "a").containsEntry("error", null);
        assertThat(mock(a, "sync").getReceivedCounter()).isEqualTo(1);
    }

    /**
     * camel-master stops the route's consumer, and with it the route's processors, when the lease is lost: the step
     * running then (the ingest, on its own thread) finishes, the steps after it are rejected, so the old writer
     * records nothing; the new writer takes the request still undone and does it again (ingest is incremental).
     */
    @Test
    void aWriterThatLosesItsLeaseMidIngestRecordsNothingAfterItAndTheNewWriterRedoesTheRequest() throws Exception {
        DefaultCamelContext a = node("a");
        CountDownLatch ingesting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        mock(a, "ingest").whenAnyExchangeReceived(e -> {
            ingesting.countDown();
            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
        });
        List<Throwable> failuresOfA = new CopyOnWriteArrayList<>();
        a.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                if (event instanceof CamelEvent.ExchangeFailedEvent failed) {
                    failuresOfA.add(failed.getExchange().getException());
                }
            }
        });
        a.start();
        JdbcLeaseClusterService serviceA = a.hasService(JdbcLeaseClusterService.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> serviceA.getView("ns").getLocalMember().isLeader());
        DefaultCamelContext b = node("b");
        b.start();
        JdbcLeaseClusterService serviceB = b.hasService(JdbcLeaseClusterService.class);

        long first = request(ClusterRequests.INGEST);
        assertThat(ingesting.await(20, TimeUnit.SECONDS)).as("a ingests").isTrue();
        // a's renewals stop reaching the database (a pause, a network fault): b holds the lease now
        jdbc.update("update cluster_leases set holder = 'b', expires_at = localtimestamp + interval '1' minute");
        await().atMost(Duration.ofSeconds(10)).until(() -> serviceB.getView("ns").getLocalMember().isLeader()
                && !serviceA.getView("ns").getLocalMember().isLeader());

        awaitDone(first);
        assertThat(row(first)).as("b redid the request a was in the middle of").containsEntry("done_by", "b")
                .containsEntry("error", null);
        assertThat(mock(b, "ingest").getReceivedCounter()).isEqualTo(1);

        release.countDown();
        await().atMost(Duration.ofSeconds(20)).until(() -> !failuresOfA.isEmpty());
        assertThat(failuresOfA.get(0)).as("the steps after a's ingest").isInstanceOf(RejectedExecutionException.class);
        assertThat(row(first)).as("a recorded nothing over b's outcome").containsEntry("done_by", "b");
        long next = request(ClusterRequests.SYNC);
        awaitDone(next);
        assertThat(row(next)).as("a no longer takes requests").containsEntry("done_by", "b");
        assertThat(mock(a, "ingest").getReceivedCounter()).isEqualTo(1);
        assertThat(mock(a, "sync").getReceivedCounter()).isZero();
    }

    @Test
    void everyReplicaReloadsNotesAnotherWroteAndAsksItsWorkingCopyToPull() throws Exception {
        IndexFollower follower = follower("f");
        DefaultCamelContext f = node("f", true, follower);
        f.start();
        noteWrittenByTheWriter();

        mock(f, "pull").setExpectedMessageCount(1);
        mock(f, "pull").assertIsSatisfied(20_000);
        assertThat(applied(follower)).isPositive();
    }

    @Test
    void withoutGitTheFollowerReloadsNotesButHasNothingToPull() throws Exception {
        IndexFollower follower = follower("f");
        DefaultCamelContext f = node("f", false, follower);
        f.start();
        noteWrittenByTheWriter();

        await().atMost(Duration.ofSeconds(20)).until(() -> applied(follower) > 0);
        assertThat(f.getRouteDefinition("index-follow").getOutputs()).as("no pull step")
                .noneMatch(step -> step instanceof FilterDefinition);
    }
}
