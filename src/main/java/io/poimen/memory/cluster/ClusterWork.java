package io.poimen.memory.cluster;

import java.util.List;

/** What the leader took from {@code cluster_requests}: which rows, and whether to sync, reindex or both. */
public final class ClusterWork {
    /** Exchange property holding the work while the route does it. */
    public static final String PROPERTY = "poimenClusterWork";
    private final List<Long> ids;
    private final boolean sync;
    private final boolean ingest;

    public ClusterWork(List<Long> ids, boolean sync, boolean ingest) {
        this.ids = List.copyOf(ids);
        this.sync = sync;
        this.ingest = ingest;
    }

    public List<Long> getIds() {
        return ids;
    }

    public boolean isSync() {
        return sync;
    }

    public boolean isIngest() {
        return ingest;
    }
}
