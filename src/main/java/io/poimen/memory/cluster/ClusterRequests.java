package io.poimen.memory.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The {@code cluster_requests} table: any replica records a sync or reindex request, the leader takes every undone
 * one, does the work once for all of them and marks them done. A leader that dies in the middle leaves them
 * undone, so the next leader does the work again (sync and ingest are incremental, so repeating is harmless).
 */
public class ClusterRequests {
    public static final String SYNC = "sync";
    public static final String INGEST = "ingest";
    private static final Logger log = LoggerFactory.getLogger(ClusterRequests.class);
    private static final int MAX_ERROR = 4000;
    private static final int BATCH = 500;

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final String nodeId;

    public ClusterRequests(DataSource dataSource, String nodeId) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.nodeId = nodeId;
    }

    /** Records a request of {@code kind} ({@link #SYNC} or {@link #INGEST}) from this replica. */
    public void record(String kind) {
        if (!SYNC.equals(kind) && !INGEST.equals(kind)) {
            throw new IllegalArgumentException("unknown cluster request kind: " + kind);
        }
        jdbc.update("insert into cluster_requests (kind, origin, requested_at) values (?, ?, localtimestamp)",
                kind, nodeId);
    }

    /** A request answered by a replica that is not the writer: recorded for it, 202 with what happened. */
    public Map<String, Object> forwarded(String kind, Exchange exchange) {
        record(kind);
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 202);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("status", "queued");
        answer.put("request", kind);
        answer.put("message", "this replica is not the writer; the writer does the " + kind + " shortly");
        return answer;
    }

    /** The leader's step: every undone request, or null when there is none. */
    public ClusterWork take() {
        List<Map<String, Object>> rows = jdbc.queryForList(
                "select id, kind from cluster_requests where done_at is null order by id limit " + BATCH);
        if (rows.isEmpty()) {
            return null;
        }
        List<Long> ids = rows.stream().map(r -> ((Number) r.get("id")).longValue()).toList();
        boolean sync = rows.stream().anyMatch(r -> SYNC.equals(r.get("kind")));
        boolean ingest = rows.stream().anyMatch(r -> INGEST.equals(r.get("kind")));
        log.info("leader {} takes {} request(s): sync={} ingest={}", nodeId, ids.size(), sync, ingest);
        return new ClusterWork(ids, sync, ingest);
    }

    public void done(@Body ClusterWork work) {
        finish(work, null);
    }

    /** The error step: the requests are done, with the error kept (the sync status shows sync errors too). */
    public void failed(Exchange exchange) {
        ClusterWork work = exchange.getProperty(ClusterWork.PROPERTY, ClusterWork.class);
        Throwable e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        String error = e == null ? "failed" : String.valueOf(e.getMessage() != null ? e.getMessage() : e);
        log.warn("requests {} failed on {}: {}", work == null ? "?" : work.getIds(), nodeId, error);
        if (work != null) {
            finish(work, error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR) : error);
        }
    }

    private void finish(ClusterWork work, String error) {
        named.update("update cluster_requests set done_at = localtimestamp, done_by = :by, error = :error"
                        + " where id in (:ids)",
                new MapSqlParameterSource("by", nodeId).addValue("ids", work.getIds()).addValue("error", error));
    }

    /** Undone requests (for the cluster status). */
    public int undone() {
        Integer n = jdbc.queryForObject("select count(*) from cluster_requests where done_at is null", Integer.class);
        return n == null ? 0 : n;
    }

    /** Drops done requests and change-log rows older than a day (the leader's housekeeping). */
    public void trim() {
        int requests = jdbc.update("delete from cluster_requests where done_at < localtimestamp - interval '1' day");
        int changes = jdbc.update("delete from index_changes where changed_at < localtimestamp - interval '1' day");
        log.debug("trimmed {} done requests and {} index changes", requests, changes);
    }
}
