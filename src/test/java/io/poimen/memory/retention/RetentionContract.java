package io.poimen.memory.retention;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.RetentionProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.health.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link Retention} on the four tables as migrated on each store: rows past their age or beyond their count are
 * deleted, newer ones kept, drafts only once finished; the audit rows it deletes are exactly those of the export
 * file, in the order deleted; an export that cannot be written deletes no audit row and is reported.
 */
abstract class RetentionContract {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant NOW = Instant.now();

    abstract DataSource dataSource();

    JdbcTemplate jdbc;
    @TempDir Path tmp;

    @BeforeEach
    void empty() {
        jdbc = new JdbcTemplate(dataSource());
        for (String table : List.of("agent_logs", "rbac_audit_log", "webhook_deliveries", "grc_drafts")) {
            jdbc.update("delete from " + table);
        }
    }

    static RetentionProperties settings(Path exportDir, Duration auditMaxAge, long auditMaxRows) {
        return new RetentionProperties(Duration.ofHours(1), 2, Duration.ofDays(30), 0, auditMaxAge, auditMaxRows,
                exportDir, Duration.ofDays(30), 0, Duration.ofDays(90), 0);
    }

    void agentEvent(String agent, Duration age) {
        jdbc.update("insert into agent_logs (agent_id, type, payload, created_at) values (?, 'agent_started', '{}', ?)",
                agent, Timestamp.valueOf(LocalDateTime.ofInstant(NOW.minus(age), ZoneOffset.UTC)));
    }

    long decision(String user, Duration age) {
        jdbc.update(con -> {
            var ps = con.prepareStatement("insert into rbac_audit_log (user_id, user_groups, resource_type, "
                    + "resource_name, action, decision, reason, \"timestamp\", trace_id) values (?, ?, 'project', "
                    + "'poimen', 'read', 'allow', 'in_allowed_group', ?, ?)");
            Array groups = con.createArrayOf("varchar", new Object[] {"platform-team", "devops-team"});
            ps.setString(1, user);
            ps.setArray(2, groups);
            ps.setTimestamp(3, Timestamp.from(NOW.minus(age)));
            ps.setString(4, "trace-" + user);
            return ps;
        });
        return jdbc.queryForObject("select max(id) from rbac_audit_log", Long.class);
    }

    void delivery(String id, Duration age) {
        jdbc.update("insert into webhook_deliveries (delivery_id, event, received_at) values (?, 'push', ?)", id,
                Timestamp.from(NOW.minus(age)));
    }

    void draft(String id, String status, Duration age) {
        Timestamp at = Timestamp.from(NOW.minus(age));
        jdbc.update("insert into grc_drafts (id, user_subject, author_name, author_email, document_path, content, "
                + "message, branch, status, created_at, updated_at) values (?, 'bob', 'Bob', 'bob@example.org', "
                + "'projects/poimen/x.md', 'x', 'm', ?, ?, ?, ?)", id, "edit/bob/" + id, status, at, at);
    }

    List<String> column(String sql) {
        return jdbc.queryForList(sql, String.class);
    }

    List<JsonNode> exported(Path dir) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return rows;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                assertThat(f.getFileName().toString()).matches("rbac-audit-\\d{4}-\\d{2}-\\d{2}\\.jsonl");
                for (String line : Files.readAllLines(f)) {
                    rows.add(JSON.readTree(line));
                }
            }
        }
        return rows;
    }

    @Test
    void rowsPastTheirAgeAreDeletedNewerKeptAndTheExportHoldsExactlyTheDeletedAuditRows() throws Exception {
        agentEvent("old-1", Duration.ofDays(40));
        agentEvent("new-1", Duration.ofDays(1));
        agentEvent("old-2", Duration.ofDays(31));
        List<Long> oldDecisions = new ArrayList<>();
        for (int i = 0; i < 5; i++) { // more than one batch of 2
            oldDecisions.add(decision("old-" + i, Duration.ofDays(400 + i)));
        }
        long kept = decision("recent", Duration.ofDays(10));
        delivery("d-old", Duration.ofDays(45));
        delivery("d-new", Duration.ofHours(2));
        draft("delivered-old", "delivered", Duration.ofDays(100));
        draft("failed-old", "failed", Duration.ofDays(91));
        draft("merged-old", "merged", Duration.ofDays(120)); // a finished state of a later change
        draft("pending-old", "pending", Duration.ofDays(200));
        draft("delivering-old", "delivering", Duration.ofDays(200));
        draft("open-old", "open", Duration.ofDays(200));
        draft("delivered-new", "delivered", Duration.ofDays(5));

        Path dir = tmp.resolve("export");
        Retention retention = new Retention(dataSource(), settings(dir, Duration.ofDays(365), 0), Clock.systemUTC());
        Retention.Outcome outcome = retention.run();

        assertThat(outcome.errors()).isEmpty();
        assertThat(outcome.deleted()).containsEntry("agent_logs", 2).containsEntry("rbac_audit_log", 5)
                .containsEntry("webhook_deliveries", 1).containsEntry("grc_drafts", 3);
        assertThat(column("select agent_id from agent_logs")).containsExactly("new-1");
        assertThat(jdbc.queryForList("select id from rbac_audit_log", Long.class)).containsExactly(kept);
        assertThat(column("select delivery_id from webhook_deliveries")).containsExactly("d-new");
        assertThat(column("select id from grc_drafts")).containsExactlyInAnyOrder("pending-old", "delivering-old",
                "open-old", "delivered-new");

        List<JsonNode> rows = exported(dir);
        assertThat(rows).extracting(r -> r.path("id").asLong()).as("the deleted rows, in the order deleted")
                .containsExactlyElementsOf(oldDecisions);
        JsonNode first = rows.get(0);
        assertThat(first.path("user_id").asText()).isEqualTo("old-0");
        assertThat(first.path("user_groups")).extracting(JsonNode::asText)
                .containsExactly("platform-team", "devops-team");
        assertThat(first.path("decision").asText()).isEqualTo("allow");
        assertThat(first.path("trace_id").asText()).isEqualTo("trace-old-0");
        assertThat(Instant.parse(first.path("timestamp").asText()))
                .isBetween(NOW.minus(Duration.ofDays(400)).minusSeconds(1), NOW.minus(Duration.ofDays(400)).plusSeconds(1));
        assertThat(retention.last()).isSameAs(outcome);
        assertThat(new RetentionHealthIndicator(retention).health().getStatus()).isEqualTo(Status.UP);

        // a second run finds nothing more to do and appends nothing
        assertThat(retention.run().deleted().values()).containsOnly(0);
        assertThat(exported(dir)).hasSize(5);
    }

    @Test
    void beyondTheirCountTheOldestAuditRowsAreExportedThenDeleted() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(decision("u" + i, Duration.ofMinutes(70 - i)));
        }
        Path dir = tmp.resolve("by-count");
        Retention retention = new Retention(dataSource(), settings(dir, Duration.ZERO, 3), Clock.systemUTC());
        assertThat(retention.run().deleted()).containsEntry("rbac_audit_log", 4);
        assertThat(jdbc.queryForList("select id from rbac_audit_log order by id", Long.class))
                .containsExactlyElementsOf(ids.subList(4, 7));
        assertThat(exported(dir)).extracting(r -> r.path("id").asLong()).containsExactlyElementsOf(ids.subList(0, 4));
    }

    @Test
    void anExportThatCannotBeWrittenDeletesNoAuditRowAndIsReported() throws Exception {
        for (int i = 0; i < 3; i++) {
            decision("old-" + i, Duration.ofDays(500));
        }
        agentEvent("old", Duration.ofDays(40));
        Path file = Files.writeString(tmp.resolve("not-a-folder"), "x");
        Path dir = file.resolve("export"); // under a regular file: no one can create it, root neither
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(Retention.class);
        logged.start();
        logger.addAppender(logged);
        Retention retention;
        Retention.Outcome outcome;
        try {
            retention = new Retention(dataSource(), settings(dir, Duration.ofDays(365), 0), Clock.systemUTC());
            outcome = retention.run();
        } finally {
            logger.detachAppender(logged);
        }

        assertThat(jdbc.queryForObject("select count(*) from rbac_audit_log", Long.class)).isEqualTo(3);
        assertThat(outcome.errors()).containsKey("rbac_audit_log");
        assertThat(outcome.deleted()).as("other tables go on").containsEntry("agent_logs", 1);
        var health = new RetentionHealthIndicator(retention).health();
        assertThat(health.getStatus().getCode()).isEqualTo("DEGRADED");
        assertThat(health.getDetails().get("errors").toString()).contains("rbac_audit_log");
        assertThat(logged.list).anySatisfy(e -> {
            assertThat(e.getLevel().toString()).isEqualTo("ERROR");
            assertThat(e.getFormattedMessage()).contains("retention of rbac_audit_log failed");
        });
    }
}
