package io.poimen.memory.cluster;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.Exchange;

/** {@code GET /memory/cluster}: this replica, the writer, what the in-process indexes hold, how far they follow. */
public class ClusterStatus {
    private final Leadership leadership;
    private final IndexFollower follower;
    private final ClusterRequests requests;
    private final TfIdfIndex tfidf;
    private final GraphService graph;
    private final CallerResolver callers;
    private final Access checks;

    public ClusterStatus(Leadership leadership, IndexFollower follower, ClusterRequests requests, TfIdfIndex tfidf,
                         GraphService graph, CallerResolver callers, Access checks) {
        this.checks = checks;
        this.leadership = leadership;
        this.follower = follower;
        this.requests = requests;
        this.tfidf = tfidf;
        this.graph = graph;
        this.callers = callers;
    }

    /** Operator data (vault-wide chunk and note totals, the change log): the admin check first, 403 otherwise. */
    public Map<String, Object> status(Exchange exchange) {
        checks.requireAdmin(callers.caller(exchange), ExchangeSecurity.traceId(exchange));
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("node_id", leadership.localId());
        s.put("leader", leadership.isLeader());
        s.put("leader_id", leadership.leaderId());
        s.put("tfidf_chunks", tfidf.size());
        s.put("graph_notes", graph.current().notes().size());
        s.putAll(follower.status());
        s.put("undone_requests", requests.undone());
        return s;
    }
}
