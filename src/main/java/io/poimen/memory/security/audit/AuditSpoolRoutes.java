package io.poimen.memory.security.audit;

import java.time.Duration;
import org.apache.camel.builder.RouteBuilder;

/**
 * Access decisions spooled to local disk while the database was down are written when it is back
 * ({@link AuditLog#replaySpool}). Owned by the code (docs/architecture.md, "Who owns a flow"): an operator's edit
 * could leave decisions on disk for good, so this is compiled and not reloaded from {@code routes/}.
 */
public class AuditSpoolRoutes extends RouteBuilder {
    private final AuditLog audit;
    private final Duration period;

    public AuditSpoolRoutes(AuditLog audit, Duration period) {
        this.audit = audit;
        this.period = period;
    }

    @Override
    public void configure() {
        from("timer:audit-spool?period=" + period.toMillis())
                .routeId("audit-spool-replay")
                .bean(audit, "replaySpool");
    }
}
