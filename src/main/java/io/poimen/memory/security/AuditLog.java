package io.poimen.memory.security;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.ProducerTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.poimen.memory.retrieval.Availability;
import io.poimen.memory.web.ApiException;

/**
 * Writes access decisions to {@code rbac_audit_log} through the {@code direct:audit} route (camel-sql, one batch
 * insert), synchronously. When the insert fails (database down) the rows go to the local {@link AuditSpool} and
 * the request goes on; the {@code audit-spool-replay} route writes them later. Only when the spool cannot be
 * written either does the request fail with 503: no decision goes unrecorded.
 */
public class AuditLog {
    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);
    public static final String ROUTE = "direct:audit";
    private final ProducerTemplate producer;
    private final AuditSpool spool;
    /** After a failed write, decisions go straight to the spool for a while instead of waiting on the database. */
    private final Availability database;

    public AuditLog(ProducerTemplate producer) {
        this(producer, null, new Availability(0));
    }

    public AuditLog(ProducerTemplate producer, AuditSpool spool, Availability database) {
        this.producer = producer;
        this.spool = spool;
        this.database = database;
    }

    public void record(Caller caller, List<AccessDecision> decisions, String traceId) {
        if (decisions.isEmpty()) {
            return;
        }
        Timestamp now = Timestamp.from(Instant.now());
        List<Map<String, Object>> rows = decisions.stream().map(d -> row(caller, d, traceId, now)).toList();
        if (spool != null && !database.available() && spooled(rows, traceId, null)) {
            return;
        }
        try {
            producer.requestBody(ROUTE, rows);
        } catch (CamelExecutionException e) {
            database.failed(String.valueOf(e.getCause() != null ? e.getCause() : e));
            if (spooled(rows, traceId, e)) {
                return;
            }
            log.error("audit write failed for trace {} ({} decisions)", traceId, rows.size(), e);
            throw new ApiException(503, "audit_unavailable",
                    "the access decision could not be written to the audit log; see the hub log for trace " + traceId);
        }
    }

    private boolean spooled(List<Map<String, Object>> rows, String traceId, Exception failure) {
        if (spool == null) {
            return false;
        }
        try {
            spool.append(rows);
            if (failure != null) {
                log.warn("audit write failed for trace {} ({}); decisions go to {} until the database is back",
                        traceId, failure.getCause() != null ? failure.getCause() : failure, spool.file());
            }
            return true;
        } catch (java.io.IOException | RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
            log.error("audit spool {} not writable: {}", spool.file(), e.toString());
            return false;
        }
    }

    /** Called by the {@code audit-spool-replay} timer route: writes the spooled rows, when there are any. */
    public int replaySpool() throws java.io.IOException {
        if (spool == null) {
            return 0;
        }
        int written;
        try {
            written = spool.replay(rows -> producer.requestBody(ROUTE, rows));
        } catch (CamelExecutionException e) {
            database.failed(String.valueOf(e.getCause() != null ? e.getCause() : e));
            log.warn("spooled audit decisions not written yet, kept in {}: {}", spool.file(), database.lastFailure());
            return 0;
        }
        if (written > 0) {
            database.succeeded();
            log.info("{} spooled audit decisions written to the database", written);
        }
        return written;
    }

    static Map<String, Object> row(Caller caller, AccessDecision d, String traceId, Timestamp at) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("user_id", caller.subject());
        row.put("user_groups", caller.groups().toArray(String[]::new));
        row.put("resource_type", d.resource().type());
        row.put("resource_name", d.resource().name());
        row.put("action", d.action().key());
        row.put("decision", d.decision());
        row.put("reason", d.reason());
        row.put("timestamp", at);
        row.put("trace_id", traceId);
        return row;
    }
}
