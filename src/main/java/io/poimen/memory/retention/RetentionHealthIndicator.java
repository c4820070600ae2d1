package io.poimen.memory.retention;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * {@code /actuator/health} component {@code retention}: UP with what the last run deleted per table; DEGRADED with
 * the error of each table that failed (an audit export that could not be written: its rows are all still there).
 * Retention runs on the writer only: other replicas report that they have not run it.
 */
public class RetentionHealthIndicator implements HealthIndicator {
    static final String DEGRADED = "DEGRADED";
    private final Retention retention;

    public RetentionHealthIndicator(Retention retention) {
        this.retention = retention;
    }

    @Override
    public Health health() {
        Retention.Outcome last = retention.last();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("audit_export_dir", retention.exportDir().toString());
        if (last == null) {
            details.put("last_run", "none on this replica (the writer runs retention)");
            return Health.up().withDetails(details).build();
        }
        details.put("last_run", last.at().toString());
        details.put("deleted", last.deleted());
        if (last.errors().isEmpty()) {
            return Health.up().withDetails(details).build();
        }
        details.put("errors", last.errors());
        return Health.status(new Status(DEGRADED)).withDetails(details).build();
    }
}
