package io.poimen.memory.security.audit;

import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Caller;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.ProducerTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.api.ApiException;

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
            // a row the table refuses (the replay quarantines it) says nothing about the database being down
            if (!AuditSpool.unwritable(e)) {
                database.failed(String.valueOf(e.getCause() != null ? e.getCause() : e));
            }
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
            // only a database that is down or unwritable gets here: rows it refuses went to the quarantine file
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

    /** One row, every text bounded to its column ({@code V3__rbac_audit.sql}) so that the insert cannot fail on it. */
    static Map<String, Object> row(Caller caller, AccessDecision d, String traceId, Timestamp at) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("user_id", bounded(caller.subject(), 256));
        row.put("user_groups", caller.groups().stream().limit(MAX_GROUPS).map(g -> bounded(g, 256))
                .toArray(String[]::new));
        row.put("resource_type", bounded(d.resource().type(), 32));
        row.put("resource_name", bounded(d.resource().name(), 256));
        row.put("action", bounded(d.action().key(), 32));
        row.put("decision", bounded(d.decision(), 32));
        row.put("reason", bounded(d.reason(), 256));
        row.put("timestamp", at);
        row.put("trace_id", bounded(traceId, 256));
        return row;
    }

    static final int MAX_GROUPS = 200;
    static final String TRUNCATED = "...[truncated]";

    /**
     * {@code value} in at most {@code max} characters (cut values end in {@value #TRUNCATED}), without NUL
     * (PostgreSQL text refuses it) and without lone surrogates (not encodable as UTF-8).
     */
    static String bounded(String value, int max) {
        if (value == null) {
            return null;
        }
        StringBuilder clean = new StringBuilder(Math.min(value.length(), max + 1));
        for (int i = 0; i < value.length() && clean.length() <= max; i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                clean.append(c).append(value.charAt(++i));
            } else if (c == 0 || Character.isSurrogate(c)) {
                clean.append('\uFFFD');
            } else {
                clean.append(c);
            }
        }
        if (clean.length() <= max) {
            return clean.toString();
        }
        int cut = max - TRUNCATED.length();
        if (Character.isLowSurrogate(clean.charAt(cut))) {
            cut--;
        }
        return clean.substring(0, cut) + TRUNCATED;
    }
}
