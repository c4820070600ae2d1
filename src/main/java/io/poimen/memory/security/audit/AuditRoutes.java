package io.poimen.memory.security.audit;

import org.apache.camel.builder.RouteBuilder;

/**
 * Every allow and deny, one batch insert per request, in the request's unit of work (synchronous, camel-sql).
 * Owned by the code (docs/architecture.md, "Who owns a flow"): the access guarantees rest on this trail, so the
 * route is compiled and not reloaded from {@code routes/}. A failed insert goes back to {@link AuditLog}, which
 * spools the decisions ({@link AuditSpoolRoutes} writes them later): nothing for an error handler to log.
 */
public class AuditRoutes extends RouteBuilder {
    static final String INSERT = "sql:insert into rbac_audit_log (user_id, user_groups, resource_type, resource_name,"
            + " action, decision, reason, \"timestamp\", trace_id) values (:#user_id, :#user_groups, :#resource_type,"
            + " :#resource_name, :#action, :#decision, :#reason, :#timestamp, :#trace_id)?batch=true";

    @Override
    public void configure() {
        from(AuditLog.ROUTE).routeId("audit-write")
                .errorHandler(noErrorHandler())
                .to(INSERT);
    }
}
