package io.poimen.memory.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.poimen.memory.config.ClusterProperties;
import io.poimen.memory.testsupport.TestPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.StartupListener;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.cluster.CamelClusterView;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The lease-row election on PostgreSQL: one holder, hand-over on stop, take-over after a lease runs out. */
class JdbcLeaseClusterServiceTest {
    private static final DataSource DB = TestPostgres.freshDatabase("lease_service");
    private static final Duration LEASE = Duration.ofMillis(1500);
    private static final Duration RENEW = Duration.ofMillis(300);
    private final JdbcTemplate jdbc = new JdbcTemplate(DB);
    private DefaultCamelContext a;
    private DefaultCamelContext b;

    @AfterEach
    void stop() {
        if (a != null) {
            a.stop();
        }
        if (b != null) {
            b.stop();
        }
        jdbc.update("delete from cluster_leases");
    }

    private static DefaultCamelContext node(JdbcLeaseClusterService service) throws Exception {
        DefaultCamelContext camel = new DefaultCamelContext();
        camel.addService(service);
        camel.start();
        return camel;
    }

    /** A context (not started) with {@code service} and a master: timer of its namespace counting into {@code fired}. */
    private static DefaultCamelContext notStartedWithMasterTimer(JdbcLeaseClusterService service, AtomicInteger fired)
            throws Exception {
        DefaultCamelContext camel = new DefaultCamelContext();
        camel.addService(service);
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("master:ns:timer:writer?period=50").process(e -> fired.incrementAndGet());
            }
        });
        return camel;
    }

    private static JdbcLeaseClusterService service(String id) {
        return new JdbcLeaseClusterService(new LeaseTable(DB), new ClusterProperties("jdbc", "ns", id, LEASE, RENEW,
                Duration.ofMillis(250), Duration.ofMillis(250)));
    }

    @Test
    void oneLeadsTheOtherFollowsAndTakesOverWhenTheLeaderStops() throws Exception {
        JdbcLeaseClusterService first = service("a");
        JdbcLeaseClusterService second = service("b");
        a = node(first);
        CamelClusterView viewA = first.getView("ns");
        b = node(second);
        CamelClusterView viewB = second.getView("ns");

        assertThat(viewA.getLocalMember().isLeader()).isTrue();
        assertThat(viewB.getLocalMember().isLeader()).isFalse();
        assertThat(viewB.getLeader()).map(m -> m.getId()).contains("a");

        long t0 = System.nanoTime();
        a.stop();
        a = null;
        await().atMost(Duration.ofSeconds(2)).until(() -> viewB.getLocalMember().isLeader());
        // a stopping leader hands the lease over: no wait for it to run out
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(LEASE);
    }

    @Test
    void aReplicaLeadsOnlyOnceItsContextHasFullyStartedAndItsMasterTimersThenFire() throws Exception {
        JdbcLeaseClusterService service = service("a");
        AtomicInteger fired = new AtomicInteger();
        List<Boolean> leadingWhileStarting = new CopyOnWriteArrayList<>();
        a = notStartedWithMasterTimer(service, fired);
        a.addStartupListener(new StartupListener() {
            @Override
            public void onCamelContextStarted(CamelContext context, boolean alreadyStarted) {
            }

            @Override
            public void onCamelContextFullyStarted(CamelContext context, boolean alreadyStarted) throws Exception {
                leadingWhileStarting.add(service.getView("ns").getLocalMember().isLeader());
            }
        });
        a.start();
        assertThat(leadingWhileStarting).as("asked as the context finished starting, its routes already running")
                .containsExactly(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> service.getView("ns").getLocalMember().isLeader());
        await().atMost(Duration.ofSeconds(20)).until(() -> fired.get() > 0);
    }

    /**
     * A master: route that starts while this replica holds the lease but its last renewal is too old to count
     * (here: taken before the context started, as the hub's start-up does, and the context slow to start; on a
     * running hub: a route reloaded while a renewal is late) starts once the lease is renewed.
     */
    @Test
    void aMasterRouteStartedWhileTheLeaseWasStaleStartsOnceTheLeaseIsRenewed() throws Exception {
        JdbcLeaseClusterService service = service("a");
        AtomicInteger fired = new AtomicInteger();
        a = notStartedWithMasterTimer(service, fired);
        JdbcLeaseClusterService.LeaseView view = (JdbcLeaseClusterService.LeaseView) service.getView("ns");
        assertThat(view.tick()).as("the lease taken before the context starts").isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> !view.getLocalMember().isLeader());
        a.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> fired.get() > 0);
        assertThat(view.getLocalMember().isLeader()).isTrue();
    }

    @Test
    void aLeaseThatRunsOutIsTakenAndItsOldHolderNoLongerRenewsIt() {
        LeaseTable leases = new LeaseTable(DB);
        assertThat(leases.acquireOrRenew("x", "dead", Duration.ofMillis(300))).isTrue();
        assertThat(leases.acquireOrRenew("x", "other", LEASE)).isFalse();
        assertThat(leases.holder("x")).contains("dead");

        await().atMost(Duration.ofSeconds(3)).until(() -> leases.acquireOrRenew("x", "other", LEASE));
        assertThat(leases.acquireOrRenew("x", "dead", LEASE)).as("the old holder lost it").isFalse();
        assertThat(leases.holder("x")).contains("other");
        assertThat(leases.acquireOrRenew("x", "other", LEASE)).as("renewal").isTrue();
    }

    @Test
    void aLeaderWhoseLeaseWasTakenStepsDownAtItsNextRenewal() throws Exception {
        JdbcLeaseClusterService service = service("a");
        a = node(service);
        CamelClusterView view = service.getView("ns");
        assertThat(view.getLocalMember().isLeader()).isTrue();
        // another holder took the row (as if this replica's renewals had not reached the database)
        jdbc.update("update cluster_leases set holder = 'b', expires_at = localtimestamp + interval '1' minute");
        await().atMost(Duration.ofSeconds(2)).until(() -> !view.getLocalMember().isLeader());
        assertThat(view.getLeader()).map(m -> m.getId()).contains("b");
    }

    /**
     * A renewal that hangs (here another session holds the lease row's lock, and PostgreSQL waits for it without
     * end; in production a database that stops answering) does not leave the master: routes running while another
     * replica may take the lease: they stop once the last renewal is too old, and start again when one goes through.
     */
    @Test
    void aLeaderWhoseRenewalHangsStopsItsMasterRoutesUntilARenewalGoesThrough() throws Exception {
        JdbcLeaseClusterService service = service("a");
        AtomicInteger fired = new AtomicInteger();
        a = notStartedWithMasterTimer(service, fired);
        a.start();
        CamelClusterView view = service.getView("ns");
        await().atMost(Duration.ofSeconds(20)).until(() -> fired.get() > 0);
        List<Boolean> toldLocalLeads = new CopyOnWriteArrayList<>();
        view.addEventListener((org.apache.camel.cluster.CamelClusterEventListener.Leadership) (v, leader) ->
                toldLocalLeads.add(leader != null && leader.isLocal()));

        try (Connection lock = DB.getConnection(); Statement st = lock.createStatement()) {
            lock.setAutoCommit(false);
            st.executeQuery("select holder from cluster_leases where namespace = 'ns' for update").close();
            await().atMost(Duration.ofSeconds(10)).until(() -> !view.getLocalMember().isLeader());
            // the hung renewal has not returned: only the watch can have told the listeners
            await().atMost(Duration.ofSeconds(10)).until(() -> toldLocalLeads.contains(false));
            await("the master timer (every 50 ms) stopped").atMost(Duration.ofSeconds(20)).until(() -> {
                int before = fired.get();
                Thread.sleep(600);
                return fired.get() == before;
            });
            lock.rollback();
        }
        int stopped = fired.get();
        await().atMost(Duration.ofSeconds(20)).until(() -> fired.get() > stopped);
        assertThat(view.getLocalMember().isLeader()).isTrue();
        assertThat(toldLocalLeads.get(toldLocalLeads.size() - 1)).as("the last event: the local member leads").isTrue();
    }
}
