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
import io.poimen.memory.web.ApiException;

/**
 * Writes access decisions to {@code rbac_audit_log} through the {@code direct:audit} route (camel-sql, one batch
 * insert), synchronously: when the insert fails the request fails with 503, so no decision goes unrecorded.
 */
public class AuditLog {
    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);
    public static final String ROUTE = "direct:audit";
    private final ProducerTemplate producer;

    public AuditLog(ProducerTemplate producer) {
        this.producer = producer;
    }

    public void record(Caller caller, List<AccessDecision> decisions, String traceId) {
        if (decisions.isEmpty()) {
            return;
        }
        Timestamp now = Timestamp.from(Instant.now());
        List<Map<String, Object>> rows = decisions.stream().map(d -> row(caller, d, traceId, now)).toList();
        try {
            producer.requestBody(ROUTE, rows);
        } catch (CamelExecutionException e) {
            log.error("audit write failed for trace {} ({} decisions)", traceId, rows.size(), e);
            throw new ApiException(503, "audit_unavailable",
                    "the access decision could not be written to the audit log; see the hub log for trace " + traceId);
        }
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
