package io.poimen.memory.cluster;

import io.poimen.memory.config.ClusterProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.apache.camel.StartupListener;
import org.apache.camel.cluster.CamelClusterMember;
import org.apache.camel.support.cluster.AbstractCamelClusterService;
import org.apache.camel.support.cluster.AbstractCamelClusterView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Camel cluster service over a lease row in the notes database ({@link LeaseTable}): the replica holding the
 * lease of a namespace leads it. Each view renews (leader) or tries to take (the others) the lease every
 * {@code poimen.cluster.renew}; a leader that dies stops renewing and another replica takes over once the lease
 * ({@code poimen.cluster.lease}) has run out. A leader that cannot renew steps down two renew periods before its
 * lease can run out, so two replicas never lead at once while their clocks run at the same rate; a replica that
 * stops releases the lease at once. A watch beside the renewals tells the listeners (camel-master's consumers)
 * when the last renewal grows that old even while the renewal itself hangs (a database that does not answer:
 * PostgreSQL waits for a row lock without end), so the consumers stop before another replica can take over.
 */
public class JdbcLeaseClusterService extends AbstractCamelClusterService<JdbcLeaseClusterService.LeaseView> {
    private static final Logger log = LoggerFactory.getLogger(JdbcLeaseClusterService.class);
    private final LeaseTable leases;
    private final ClusterProperties settings;

    public JdbcLeaseClusterService(LeaseTable leases, ClusterProperties settings) {
        super("jdbc-lease");
        this.leases = leases;
        this.settings = settings;
    }

    @Override
    protected LeaseView createView(String namespace) {
        return new LeaseView(namespace);
    }

    /** One namespace's lease, as seen from this replica. */
    public final class LeaseView extends AbstractCamelClusterView {
        private final Member local = new Member(settings.nodeId(), true);
        private volatile boolean leader;
        private volatile String leaderId;
        private volatile long renewedNanos;
        private final Object events = new Object();
        private boolean toldStale;
        private ScheduledExecutorService timer;

        LeaseView(String namespace) {
            super(JdbcLeaseClusterService.this, namespace);
        }

        /**
         * Leads only once Camel has fully started. camel-master starts a route's delegated timer when leadership is
         * taken; a timer started while the context is still starting is scheduled by a start-up callback, and one
         * registered just after the context called its callbacks, but before it counted as started, never fired
         * (HubClusterTest under load: the writer's cluster-requests timer had no thread, its other timers ran).
         */
        @Override
        protected void doStart() throws Exception {
            CamelContext camel = getCamelContext();
            if (camel == null || camel.getStatus().isStarted()) {
                startRenewing();
                return;
            }
            camel.addStartupListener(new StartupListener() {
                @Override
                public void onCamelContextStarted(CamelContext context, boolean alreadyStarted) {
                }

                @Override
                public void onCamelContextFullyStarted(CamelContext context, boolean alreadyStarted) {
                    if (isRunAllowed()) {
                        startRenewing();
                    }
                }
            });
        }

        private synchronized void startRenewing() {
            if (timer != null) {
                return;
            }
            tick();
            timer = Executors.newScheduledThreadPool(2, r -> {
                Thread t = new Thread(r, "cluster-lease-" + getNamespace());
                t.setDaemon(true);
                return t;
            });
            long period = settings.renew().toMillis();
            timer.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
            timer.scheduleWithFixedDelay(this::watchStale, period, Math.max(1, period / 4), TimeUnit.MILLISECONDS);
        }

        /** Tells the listeners once when the local member stops leading because its renewal is late. */
        private void watchStale() {
            synchronized (events) {
                if (leader && !fresh() && !toldStale) {
                    toldStale = true;
                    log.warn("{}: the {} lease was last renewed too long ago; not leading until it is renewed",
                            settings.nodeId(), getNamespace());
                    fireLeadershipChangedEvent(getLeader().orElse(null));
                }
            }
        }

        @Override
        protected void doStop() {
            if (timer != null) {
                timer.shutdownNow();
                timer = null;
            }
            if (leader) {
                try {
                    leases.release(getNamespace(), settings.nodeId());
                } catch (RuntimeException e) {
                    log.warn("could not release the {} lease (it runs out by itself): {}", getNamespace(), e.toString());
                }
            }
            update(false, null, local.isLeader());
        }

        /** One renewal or take-over attempt; true when this replica leads afterwards. */
        public synchronized boolean tick() {
            long started = System.nanoTime();
            boolean wasLeading = local.isLeader();
            try {
                if (leases.acquireOrRenew(getNamespace(), settings.nodeId(), settings.lease())) {
                    renewedNanos = started;
                    update(true, settings.nodeId(), wasLeading);
                } else {
                    update(false, leases.holder(getNamespace()).orElse(null), wasLeading);
                }
            } catch (RuntimeException e) {
                if (leader && !fresh()) {
                    log.warn("cannot renew the {} lease, stepping down: {}", getNamespace(), e.toString());
                    update(false, null, wasLeading);
                } else {
                    log.debug("lease attempt for {} failed: {}", getNamespace(), e.toString());
                }
            }
            return leader;
        }

        /** The last renewal is recent enough that the lease cannot have run out yet (with two renewals to spare). */
        private boolean fresh() {
            long margin = settings.lease().minus(settings.renew().multipliedBy(2)).toNanos();
            return System.nanoTime() - renewedNanos < margin;
        }

        /**
         * Records the outcome of a lease attempt and tells the listeners when what they see changed: the leader,
         * or whether the local member leads ({@code wasLeading}: as it did before the attempt). A renewal after the
         * last one had grown stale makes the local member lead again although it held the row all along: a listener
         * that asked while it was stale (a master: consumer starting then) or was told so by {@link #watchStale}
         * learns it only from this event, or its consumer never starts again.
         */
        private void update(boolean nowLeader, String currentLeader, boolean wasLeading) {
            synchronized (events) {
                boolean roleChanged = nowLeader != leader;
                boolean leaderChanged = !Objects.equals(currentLeader, leaderId);
                leader = nowLeader;
                leaderId = currentLeader;
                boolean wasToldStale = toldStale;
                toldStale = false;
                if (roleChanged) {
                    log.info("{} {} the {} lease", settings.nodeId(), nowLeader ? "holds" : "no longer holds",
                            getNamespace());
                }
                if (leaderChanged || local.isLeader() != wasLeading || (wasToldStale && local.isLeader())) {
                    fireLeadershipChangedEvent(getLeader().orElse(null));
                }
            }
        }

        @Override
        public Optional<CamelClusterMember> getLeader() {
            if (local.isLeader()) {
                return Optional.of(local);
            }
            String id = leaderId;
            return id == null || id.equals(settings.nodeId()) ? Optional.empty() : Optional.of(new Member(id, false));
        }

        @Override
        public CamelClusterMember getLocalMember() {
            return local;
        }

        @Override
        public List<CamelClusterMember> getMembers() {
            List<CamelClusterMember> members = new ArrayList<>();
            members.add(local);
            getLeader().filter(m -> !m.isLocal()).ifPresent(members::add);
            return members;
        }

        private final class Member implements CamelClusterMember {
            private final String id;
            private final boolean isLocal;

            Member(String id, boolean isLocal) {
                this.id = id;
                this.isLocal = isLocal;
            }

            @Override
            public String getId() {
                return id;
            }

            @Override
            public boolean isLocal() {
                return isLocal;
            }

            /** The local member leads only while its lease is surely still held, even between two renewals. */
            @Override
            public boolean isLeader() {
                return isLocal ? leader && fresh() : id.equals(leaderId);
            }
        }
    }
}
