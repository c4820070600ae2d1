package io.poimen.memory.security.audit;

import io.poimen.memory.security.AccessEndpoints;
import io.poimen.memory.security.LocalOperatorAccess;
import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.VaultResource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.web.ErrorResponses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.yaml.snakeyaml.Yaml;

/**
 * The audit routes: the camel-sql insert of {@link AuditRoutes}, the filtered select of
 * {@code routes/audit.camel.yaml} and the spool replay of {@link AuditSpoolRoutes}, on a real database: the same
 * contract on H2 and on PostgreSQL, whose array columns differ. The REST verbs are left out (no HTTP server here);
 * {@code routes/errors.camel.yaml} gives the error handling.
 */
abstract class AuditRouteContract {
    static final Caller ALICE = new Caller("alice", "alice", null, List.of("data-team", "x-team"), List.of("viewer"),
            List.of(), false);
    static final Caller BOB = new Caller("bob", "bob", null, List.of(), List.of("editor"), List.of(), false);
    @TempDir Path tmp;
    CamelContext camel;
    ProducerTemplate producer;
    DataSource dataSource;

    abstract DataSource database();

    @BeforeEach
    void routes() throws Exception {
        dataSource = database();
        camel = new DefaultCamelContext();
        // the hub's own defaults, as its routes' placeholders see them under Spring
        java.util.Properties defaults = new java.util.Properties();
        defaults.putAll(io.poimen.memory.config.TreeDefaults.defaults());
        camel.getPropertiesComponent().setInitialProperties(defaults);
        camel.getRegistry().bind("dataSource", dataSource);
        camel.getRegistry().bind("errorResponses", new ErrorResponses());
        camel.getRegistry().bind("auditQuery", new AuditQuery());
        camel.getRegistry().bind("arrayColumnRowMappers", new ArrayColumnRowMapperFactory());
        LocalOperatorAccess local = new LocalOperatorAccess();
        camel.getRegistry().bind("accessEndpoints", new AccessEndpoints(local, local, null, null));
        camel.getRegistry().bind("auditLog", new AuditLog(camel.createProducerTemplate()));
        for (String file : List.of("routes/errors.camel.yaml", "routes/audit.camel.yaml")) {
            PluginHelper.getRoutesLoader(camel).loadRoutes(
                    ResourceHelper.resolveMandatoryResource(camel, "file:" + withoutRest(Path.of(file))));
        }
        camel.addRoutes(new AuditRoutes());
        camel.start();
        producer = camel.createProducerTemplate();
    }

    @AfterEach
    void stop() {
        camel.stop();
    }

    Path withoutRest(Path file) throws IOException {
        List<Map<String, Object>> items = new Yaml().load(Files.readString(file));
        items.removeIf(i -> i.containsKey("rest") || i.containsKey("restConfiguration"));
        Path out = tmp.resolve(file.getFileName());
        Files.writeString(out, new Yaml().dump(items));
        return out;
    }

    JsonNode query(Map<String, Object> headers) throws IOException {
        Exchange ex = producer.request("direct:audit-query", e -> e.getMessage().getHeaders().putAll(headers));
        return new ObjectMapper().readTree(ex.getMessage().getBody(String.class));
    }

    @Test
    void decisionsMadeWhileTheTableIsUnwritableAreSpooledAndWrittenLater() throws Exception {
        AuditSpool spool = new AuditSpool(tmp.resolve("spool/audit.jsonl"));
        AuditLog log = new AuditLog(producer, spool, new io.poimen.memory.ops.Availability(60_000));
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("alter table rbac_audit_log rename to rbac_audit_log_away");
        try {
            log.record(ALICE, List.of(new AccessDecision(VaultResource.project("poimen"), Action.READ, false,
                    "not_in_allowed_groups")), "trace-down-1");
            log.record(BOB, List.of(new AccessDecision(VaultResource.skill("SKILL-x"), Action.READ, true,
                    "access_level_public")), "trace-down-2");

            assertThat(Files.readAllLines(spool.file())).hasSize(2);
            assertThat(log.replaySpool()).as("still unwritable: kept for later").isZero();
            assertThat(Files.readAllLines(spool.file())).hasSize(2);
        } finally {
            jdbc.execute("alter table rbac_audit_log_away rename to rbac_audit_log");
        }

        assertThat(log.replaySpool()).isEqualTo(2);

        assertThat(Files.exists(spool.file())).isFalse();
        List<Map<String, Object>> rows = jdbc.queryForList(
                "select user_id, decision, reason, trace_id from rbac_audit_log order by id");
        assertThat(rows).extracting(r -> r.get("user_id") + "/" + r.get("decision") + "/" + r.get("reason") + "/"
                + r.get("trace_id")).containsExactly("alice/deny/not_in_allowed_groups/trace-down-1",
                "bob/allow/access_level_public/trace-down-2");
        JsonNode alice = query(Map.of("user", "alice"));
        assertThat(alice.get(0).path("user_groups").toString()).isEqualTo("[\"data-team\",\"x-team\"]");
        assertThat(log.replaySpool()).isZero();
    }

    /** The replay timer of {@link AuditSpoolRoutes}: it keeps trying while the table is away, then writes. */
    @Test
    void theReplayRouteWritesTheSpoolOnceTheDatabaseTakesInsertsAgain() throws Exception {
        AuditSpool spool = new AuditSpool(tmp.resolve("spool/audit.jsonl"));
        AuditLog log = new AuditLog(producer, spool, new io.poimen.memory.ops.Availability(60_000));
        AtomicInteger replays = new AtomicInteger();
        camel.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                if (event instanceof CamelEvent.ExchangeCompletedEvent done
                        && "audit-spool-replay".equals(done.getExchange().getFromRouteId())) {
                    replays.incrementAndGet();
                }
            }
        });
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("alter table rbac_audit_log rename to rbac_audit_log_away");
        try {
            log.record(ALICE, List.of(new AccessDecision(VaultResource.project("poimen"), Action.READ, false,
                    "not_in_allowed_groups")), "trace-away");
            camel.addRoutes(new AuditSpoolRoutes(log, Duration.ofMillis(100)));
            await().atMost(Duration.ofSeconds(20)).until(() -> replays.get() >= 2);
            assertThat(Files.readAllLines(spool.file())).as("kept while the table is away").hasSize(1);
        } finally {
            jdbc.execute("alter table rbac_audit_log_away rename to rbac_audit_log");
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(spool.file()));
        assertThat(jdbc.queryForList("select trace_id from rbac_audit_log", String.class))
                .containsExactly("trace-away");
    }

    @Test
    void absurdFieldsAreBoundedBeforeTheInsertSoTheDecisionIsWritten() {
        AuditSpool spool = new AuditSpool(tmp.resolve("spool/audit.jsonl"));
        AuditLog log = new AuditLog(producer, spool, new io.poimen.memory.ops.Availability(60_000));
        Caller odd = new Caller("u".repeat(5000), "odd", null, List.of("g".repeat(300), "nul\u0000group"),
                List.of(), List.of(), false);
        log.record(odd, List.of(new AccessDecision(VaultResource.project("p".repeat(5000)), Action.READ, false,
                "r".repeat(1000))), "t".repeat(5000));

        assertThat(Files.exists(spool.file())).as("written, not spooled").isFalse();
        Map<String, Object> row = new JdbcTemplate(dataSource).queryForMap(
                "select user_id, resource_name, reason, trace_id from rbac_audit_log");
        assertThat(row.values()).allSatisfy(v -> assertThat((String) v).hasSize(256).endsWith(AuditLog.TRUNCATED));
        assertThat((String) row.get("resource_name")).startsWith("ppppp");
    }

    @Test
    void aSpooledRowTheTableRefusesIsQuarantinedAndTheRestIsWritten() throws Exception {
        AuditSpool spool = new AuditSpool(tmp.resolve("spool/audit.jsonl"));
        io.poimen.memory.ops.Availability database = new io.poimen.memory.ops.Availability(60_000);
        AuditLog log = new AuditLog(producer, spool, database);
        java.sql.Timestamp now = java.sql.Timestamp.from(java.time.Instant.now());
        Map<String, Object> poisoned = AuditLog.row(ALICE, new AccessDecision(VaultResource.project("poimen"),
                Action.READ, true, "in_allowed_group"), "trace-poison", now);
        // as a hub before the bounds spooled it: a value longer than its column
        poisoned.put("resource_name", "x".repeat(5000));
        spool.append(List.of(AuditLog.row(BOB, new AccessDecision(VaultResource.project("poimen"), Action.READ,
                false, "not_in_allowed_groups"), "trace-before", now)));
        spool.append(List.of(poisoned));
        spool.append(List.of(AuditLog.row(BOB, new AccessDecision(VaultResource.skill("SKILL-x"), Action.READ,
                true, "access_level_public"), "trace-after", now)));
        Files.writeString(spool.file(), "{\"user_id\": \"cut short\n", java.nio.file.StandardOpenOption.APPEND);

        assertThat(log.replaySpool()).isEqualTo(2);

        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        assertThat(jdbc.queryForList("select trace_id from rbac_audit_log order by id", String.class))
                .containsExactly("trace-before", "trace-after");
        assertThat(Files.exists(spool.file())).isFalse();
        assertThat(Files.readAllLines(spool.quarantine())).hasSize(2)
                .anySatisfy(l -> assertThat(l).contains("trace-poison")).anySatisfy(l -> assertThat(l).contains("cut short"));
        assertThat(database.available()).as("a refused row does not start a database cool-down").isTrue();
        // the next decision goes straight to the table again
        log.record(ALICE, List.of(new AccessDecision(VaultResource.project("poimen"), Action.READ, true,
                "in_allowed_group")), "trace-next");
        assertThat(Files.exists(spool.file())).isFalse();
        assertThat(jdbc.queryForList("select trace_id from rbac_audit_log order by id", String.class))
                .containsExactly("trace-before", "trace-after", "trace-next");
        assertThat(log.replaySpool()).isZero();
    }

    @Test
    void withoutASpoolAFailedAuditWriteFailsTheRequest() {
        AuditLog log = new AuditLog(producer);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("alter table rbac_audit_log rename to rbac_audit_log_away");
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> log.record(ALICE, List.of(new AccessDecision(
                    VaultResource.project("poimen"), Action.READ, true, "x")), "trace-x"))
                    .isInstanceOf(io.poimen.memory.api.ApiException.class).hasMessageContaining("audit log");
        } finally {
            jdbc.execute("alter table rbac_audit_log_away rename to rbac_audit_log");
        }
    }

    @Test
    void writesEveryDecisionInOneBatchAndFiltersThemBack() throws IOException {
        AuditLog log = new AuditLog(producer);
        log.record(ALICE, List.of(
                new AccessDecision(VaultResource.project("poimen"), Action.READ, false, "not_in_allowed_groups"),
                new AccessDecision(VaultResource.skill("SKILL-testing"), Action.READ, true, "access_level_public")),
                "trace-a");
        log.record(BOB, List.of(new AccessDecision(VaultResource.project("ml-training"), Action.WRITE, true,
                "owner_group")), "trace-b");

        List<Map<String, Object>> rows = new JdbcTemplate(dataSource)
                .queryForList("select user_id, resource_type, action, decision, reason, trace_id from rbac_audit_log"
                        + " order by id");
        assertThat(rows).extracting(r -> r.get("user_id") + "/" + r.get("resource_type") + "/" + r.get("action") + "/"
                + r.get("decision") + "/" + r.get("reason") + "/" + r.get("trace_id")).containsExactly(
                "alice/project/read/deny/not_in_allowed_groups/trace-a",
                "alice/skill/read/allow/access_level_public/trace-a",
                "bob/project/write/allow/owner_group/trace-b");

        JsonNode all = query(Map.of());
        assertThat(all).hasSize(3);
        assertThat(all.get(0).path("user_id").asText()).as("newest first").isEqualTo("bob");
        assertThat(all.get(0).path("user_groups").isArray()).isTrue();
        assertThat(all.get(0).path("user_groups")).isEmpty();
        assertThat(all.get(2).path("user_groups").toString()).isEqualTo("[\"data-team\",\"x-team\"]");
        assertThat(all.get(2).path("timestamp").asText()).endsWith("Z");

        Map<String, Object> filter = new HashMap<>();
        filter.put("user", "alice");
        filter.put("decision", "deny");
        JsonNode denied = query(filter);
        assertThat(denied).singleElement().satisfies(e -> assertThat(e.path("resource_name").asText())
                .isEqualTo("poimen"));
        assertThat(query(Map.of("resource", "ml-training"))).singleElement()
                .satisfies(e -> assertThat(e.path("user_id").asText()).isEqualTo("bob"));
        assertThat(query(Map.of("limit", "1"))).hasSize(1);
        assertThat(query(Map.of("since", "2999-01-01"))).isEmpty();
        assertThat(query(Map.of("limit", "5000")).path("error").asText()).isEqualTo("bad_request");
    }
}
