package io.poimen.memory.retention;

import io.poimen.memory.config.RetentionProperties;
import io.poimen.memory.security.audit.ArrayColumnRowMapperFactory;
import io.poimen.memory.security.audit.AuditQuery;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * Deletes what the tables that grow with use no longer need to keep ({@code poimen.retention.*}), run by the writer
 * ({@code retention} route): per table, first the rows older than its maximum age, then the oldest beyond its
 * maximum count, oldest first, {@code batch-size} rows at a time. Access decisions are exported as JSON lines
 * ({@link AuditExport}) before each batch is deleted, in the order they are deleted; only the rows of a batch whose
 * export is on disk are deleted, so a failed export deletes nothing more and is reported (health {@code retention},
 * ERROR in the log). Other tables go on meanwhile.
 */
public class Retention {
    private static final Logger log = LoggerFactory.getLogger(Retention.class);
    private static final String AUDIT_COLUMNS = "id, user_id, user_groups, resource_type, resource_name, action, "
            + "decision, reason, \"timestamp\", trace_id";

    /** What a run did: rows deleted per table, and the error of each table that failed. */
    public record Outcome(Instant at, Map<String, Integer> deleted, Map<String, String> errors) {
    }

    private record Rule(RetainedTable table, Duration maxAge, long maxRows) {
    }

    private final JdbcTemplate jdbc;
    private final AuditExport export;
    private final List<Rule> rules;
    private final int batchSize;
    private final Clock clock;
    private final RowMapper<Map<String, Object>> auditRows;
    private final AuditQuery auditEntries = new AuditQuery();
    private volatile Outcome last;

    public Retention(DataSource dataSource, RetentionProperties settings, Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.clock = clock;
        this.export = new AuditExport(settings.auditExportDir(), clock);
        this.batchSize = settings.batchSize();
        this.rules = List.of(
                new Rule(RetainedTable.AGENT_LOGS, settings.agentLogsMaxAge(), settings.agentLogsMaxRows()),
                new Rule(RetainedTable.AUDIT, settings.auditMaxAge(), settings.auditMaxRows()),
                new Rule(RetainedTable.WEBHOOK_DELIVERIES, settings.webhookDeliveriesMaxAge(),
                        settings.webhookDeliveriesMaxRows()),
                new Rule(RetainedTable.DRAFTS, settings.draftsMaxAge(), settings.draftsMaxRows()));
        @SuppressWarnings("unchecked")
        RowMapper<Map<String, Object>> rows = (RowMapper<Map<String, Object>>) new ArrayColumnRowMapperFactory()
                .newColumnRowMapper();
        this.auditRows = rows;
    }

    /** One pass over every table; what it did, also kept for {@link #last()}. */
    public Outcome run() {
        Instant now = clock.instant();
        Map<String, Integer> deleted = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (Rule rule : rules) {
            String table = rule.table().name();
            try {
                deleted.put(table, apply(rule, now));
            } catch (IOException | RuntimeException e) {
                errors.put(table, e.toString());
                log.error("retention of {} failed, nothing more of it deleted: {}", table, e.toString(), e);
            }
        }
        Outcome outcome = new Outcome(now, Collections.unmodifiableMap(deleted), Collections.unmodifiableMap(errors));
        last = outcome;
        if (deleted.values().stream().anyMatch(n -> n > 0)) {
            log.info("retention deleted {}", deleted);
        }
        return outcome;
    }

    /** The last run's outcome, or null before the first (and on replicas that are not the writer). */
    public Outcome last() {
        return last;
    }

    Path exportDir() {
        return export.dir();
    }

    private int apply(Rule rule, Instant now) throws IOException {
        RetainedTable t = rule.table();
        int deleted = 0;
        if (!rule.maxAge().isZero()) {
            Object cutoff = t.stored(now.minus(rule.maxAge()));
            while (true) {
                List<Object> keys = jdbc.queryForList("select " + t.key() + " from " + t.name()
                        + t.where(t.time() + " < ?") + " order by " + t.oldest() + " limit " + batchSize, Object.class,
                        cutoff);
                int n = delete(t, keys);
                deleted += n;
                if (keys.size() < batchSize || n == 0) {
                    break;
                }
            }
        }
        if (rule.maxRows() > 0) {
            Long count = jdbc.queryForObject("select count(*) from " + t.name() + t.where(null), Long.class);
            long excess = count == null ? 0 : count - rule.maxRows();
            while (excess > 0) {
                List<Object> keys = jdbc.queryForList("select " + t.key() + " from " + t.name() + t.where(null)
                        + " order by " + t.oldest() + " limit " + Math.min(batchSize, excess), Object.class);
                if (keys.isEmpty()) {
                    break;
                }
                int n = delete(t, keys);
                if (n == 0) {
                    break;
                }
                deleted += n;
                excess -= n;
            }
        }
        return deleted;
    }

    /** Deletes the rows of {@code keys}; audit rows only once they are exported. */
    private int delete(RetainedTable t, List<Object> keys) throws IOException {
        if (keys.isEmpty()) {
            return 0;
        }
        String in = " where " + t.key() + " in (" + String.join(", ", Collections.nCopies(keys.size(), "?")) + ")";
        if (t == RetainedTable.AUDIT) {
            List<Map<String, Object>> rows = jdbc.query("select " + AUDIT_COLUMNS + " from rbac_audit_log" + in
                    + " order by id", auditRows, keys.toArray());
            try {
                export.append(auditEntries.entries(rows));
            } catch (SQLException e) {
                throw new IOException("audit rows could not be read for the export", e);
            }
        }
        return jdbc.update("delete from " + t.name() + in, keys.toArray());
    }
}
