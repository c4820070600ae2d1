package io.poimen.memory.config;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code poimen.retention.*}: how long the writer keeps rows of the tables that grow with use, by age
 * (0: no age limit) and optionally by count (0: no count limit, else the newest rows are kept). Audit rows are
 * written as JSON lines to {@code auditExportDir} before they are deleted (docs/operations.md, "Retention").
 *
 * @param period                   how often the writer applies retention
 * @param batchSize                rows exported and deleted together
 * @param agentLogsMaxAge          agent events ({@code agent_logs}) older than this are deleted
 * @param agentLogsMaxRows         agent events kept at most
 * @param auditMaxAge              access decisions ({@code rbac_audit_log}) older than this are exported, then deleted
 * @param auditMaxRows             access decisions kept at most (the oldest beyond are exported, then deleted)
 * @param auditExportDir           folder of the export files, one per UTC day ({@code rbac-audit-YYYY-MM-DD.jsonl})
 * @param webhookDeliveriesMaxAge  webhook delivery ids ({@code webhook_deliveries}) older than this are deleted
 * @param webhookDeliveriesMaxRows webhook delivery ids kept at most
 * @param draftsMaxAge             finished drafts ({@code grc_drafts} not open, pending or delivering) not updated
 *                                 for this long are deleted
 * @param draftsMaxRows            finished drafts kept at most
 */
public record RetentionProperties(@DefaultValue("1h") Duration period, @DefaultValue("1000") int batchSize,
                                  @DefaultValue("30d") Duration agentLogsMaxAge,
                                  @DefaultValue("0") long agentLogsMaxRows,
                                  @DefaultValue("365d") Duration auditMaxAge, @DefaultValue("0") long auditMaxRows,
                                  @DefaultValue("data/audit-export") Path auditExportDir,
                                  @DefaultValue("30d") Duration webhookDeliveriesMaxAge,
                                  @DefaultValue("0") long webhookDeliveriesMaxRows,
                                  @DefaultValue("90d") Duration draftsMaxAge, @DefaultValue("0") long draftsMaxRows) {

    public RetentionProperties {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("poimen.retention.period must be positive; got " + period);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("poimen.retention.batch-size must be at least 1; got " + batchSize);
        }
        age("agent-logs-max-age", agentLogsMaxAge);
        age("audit-max-age", auditMaxAge);
        age("webhook-deliveries-max-age", webhookDeliveriesMaxAge);
        age("drafts-max-age", draftsMaxAge);
        rows("agent-logs-max-rows", agentLogsMaxRows);
        rows("audit-max-rows", auditMaxRows);
        rows("webhook-deliveries-max-rows", webhookDeliveriesMaxRows);
        rows("drafts-max-rows", draftsMaxRows);
    }

    private static void age(String key, Duration value) {
        if (value.isNegative()) {
            throw new IllegalArgumentException("poimen.retention." + key + " must be a duration, 0 for no age "
                    + "limit; got " + value);
        }
    }

    private static void rows(String key, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("poimen.retention." + key + " must be a number of rows, 0 for no "
                    + "limit; got " + value);
        }
    }
}
