package io.poimen.memory.retention;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * A table whose rows retention deletes: its key, the time a row's age counts from, the order oldest first, which
 * rows may go at all, and how its writer stores times.
 *
 * @param name      table
 * @param key       primary key column
 * @param time      the time column the age counts from
 * @param oldest    {@code order by} clause, oldest first (ties by key), the order rows are deleted (and exported) in
 * @param removable condition a row must meet to be deleted, or null for any row
 * @param utc       times are written as UTC wall-clock times (else as the JVM's {@code Timestamp.from(instant)})
 */
record RetainedTable(String name, String key, String time, String oldest, String removable, boolean utc) {

    /** Agent events: {@code AgentLogStore} writes UTC times. */
    static final RetainedTable AGENT_LOGS = new RetainedTable("agent_logs", "id", "created_at", "id", null, true);
    /** Access decisions, oldest first by id (the order they were written in; spooled ones come later). */
    static final RetainedTable AUDIT = new RetainedTable("rbac_audit_log", "id", "\"timestamp\"", "id", null, false);
    static final RetainedTable WEBHOOK_DELIVERIES = new RetainedTable("webhook_deliveries", "delivery_id",
            "received_at", "received_at, delivery_id", null, false);
    /**
     * Drafts that are finished: delivered, failed, or any state a later change adds that is not one of the states
     * still on their way (open, pending, delivering).
     */
    static final RetainedTable DRAFTS = new RetainedTable("grc_drafts", "id", "updated_at", "updated_at, id",
            "status not in ('open', 'pending', 'delivering')", false);

    /** {@code instant} as this table's writer stores it. */
    Timestamp stored(Instant instant) {
        return utc ? Timestamp.valueOf(LocalDateTime.ofInstant(instant, ZoneOffset.UTC)) : Timestamp.from(instant);
    }

    /** {@code where} clause of the removable rows, with {@code more} (may be null) and-ed to it. */
    String where(String more) {
        if (removable == null && more == null) {
            return "";
        }
        return " where " + (removable == null ? more : more == null ? removable : removable + " and " + more);
    }
}
