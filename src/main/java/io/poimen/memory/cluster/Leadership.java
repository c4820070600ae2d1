package io.poimen.memory.cluster;

import org.apache.camel.cluster.CamelClusterMember;
import org.apache.camel.cluster.CamelClusterService;
import org.apache.camel.cluster.CamelClusterView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this replica is the writer (the leader of {@code poimen.cluster.namespace}), for the beans and route
 * filters that must not write on a follower. A replica that becomes leader after start-up records a catch-up
 * request (a sync with git, else a reindex): its vault copy may be behind, or the previous leader died in the
 * middle of an ingest.
 */
public class Leadership {
    private static final Logger log = LoggerFactory.getLogger(Leadership.class);
    private final CamelClusterService service;
    private final String namespace;
    private final ClusterRequests requests;
    private final boolean gitEnabled;
    private volatile CamelClusterView view;
    private volatile boolean ready;
    private boolean wasLeader;

    public Leadership(CamelClusterService service, String namespace, ClusterRequests requests, boolean gitEnabled) {
        this.service = service;
        this.namespace = namespace;
        this.requests = requests;
        this.gitEnabled = gitEnabled;
    }

    public boolean isLeader() {
        try {
            return view().getLocalMember().isLeader();
        } catch (Exception e) {
            log.debug("leadership of {} unknown: {}", namespace, e.toString());
            return false;
        }
    }

    /** The leader's id, or null while none is known. */
    public String leaderId() {
        try {
            return view().getLeader().map(CamelClusterMember::getId).orElse(null);
        } catch (Exception e) {
            return null;
        }
    }

    public String localId() {
        try {
            return view().getLocalMember().getId();
        } catch (Exception e) {
            return null;
        }
    }

    /** Tries to take (or renew) the lease now instead of at the next renewal; true when this replica leads. */
    public boolean acquireNow() {
        try {
            if (view() instanceof JdbcLeaseClusterService.LeaseView lease) {
                return lease.tick();
            }
        } catch (Exception e) {
            log.warn("cannot ask for the {} lease: {}", namespace, e.toString());
            return false;
        }
        return isLeader();
    }

    /** From now on, leadership gained asks for a catch-up (start-up handles the first one itself). */
    public void ready() {
        synchronized (this) {
            wasLeader = isLeader();
        }
        ready = true;
    }

    private CamelClusterView view() throws Exception {
        CamelClusterView v = view;
        if (v == null) {
            synchronized (this) {
                if (view == null) {
                    CamelClusterView created = service.getView(namespace);
                    view = created;
                    created.addEventListener((org.apache.camel.cluster.CamelClusterEventListener.Leadership)
                            (changed, leader) -> changed());
                }
                v = view;
            }
        }
        return v;
    }

    private void changed() {
        boolean leader = isLeader();
        boolean gained;
        synchronized (this) {
            gained = leader && !wasLeader;
            wasLeader = leader;
        }
        if (gained && ready) {
            String kind = gitEnabled ? ClusterRequests.SYNC : ClusterRequests.INGEST;
            try {
                requests.record(kind);
                log.info("became the writer: {} requested to catch up", kind);
            } catch (RuntimeException e) {
                log.warn("became the writer but could not record the catch-up {}: {}", kind, e.toString());
            }
        }
    }
}
