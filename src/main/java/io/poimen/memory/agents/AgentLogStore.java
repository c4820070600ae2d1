package io.poimen.memory.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@code agent_logs} table (schema in {@code db/migration/common/V5__agent_logs.sql}); times stored as UTC.
 *
 * <p>Events are committed in the order of their ids, so a reader that has seen every event up to an id never
 * finds an older one later (what the live stream and its resumption by {@code Last-Event-ID} rely on): on
 * PostgreSQL each insert takes a transaction-level advisory lock first, shared by every replica, and announces the
 * new id on the channel {@value #CHANNEL} ({@code pg_notify}, delivered at commit); on H2 (one process) inserts
 * take turns in this object.
 */
public class AgentLogStore {
    /** The PostgreSQL channel on which each new event's id is announced at commit. */
    public static final String CHANNEL = "poimen_agent_events";
    /** The advisory lock that orders inserts on PostgreSQL (an arbitrary constant of this table). */
    private static final long APPEND_LOCK = 0x706f696d656e4167L;
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final String COLUMNS = "select id, agent_id, session_id, type, payload, created_at from agent_logs";

    private static final int MAX_PAGES = 20;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final ObjectMapper json;
    private final boolean postgres;

    /** @param postgres whether the database is PostgreSQL (shared by replicas) rather than this process's H2 */
    public AgentLogStore(DataSource dataSource, ObjectMapper json, boolean postgres) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.json = json;
        this.postgres = postgres;
    }

    /** Appends the event and returns it with its id and time; its id is above that of every event committed before. */
    public AgentEvent append(String agentId, String sessionId, AgentEventType type, Map<String, Object> payload) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        String text = write(payload);
        if (!postgres) {
            synchronized (this) {
                return insert(agentId, sessionId, type, payload, text, now);
            }
        }
        return transaction.execute(tx -> {
            jdbc.query("select pg_advisory_xact_lock(?)", rs -> null, APPEND_LOCK);
            AgentEvent event = insert(agentId, sessionId, type, payload, text, now);
            jdbc.query("select pg_notify(?, ?)", rs -> null, CHANNEL, Long.toString(event.id()));
            return event;
        });
    }

    private AgentEvent insert(String agentId, String sessionId, AgentEventType type, Map<String, Object> payload,
                              String text, Instant now) {
        KeyHolder keys = new GeneratedKeyHolder();
        jdbc.update(con -> {
            PreparedStatement ps = con.prepareStatement(
                    "insert into agent_logs (agent_id, session_id, type, payload, created_at) values (?, ?, ?, ?, ?)",
                    new String[] {"id"});
            ps.setString(1, agentId);
            ps.setString(2, sessionId);
            ps.setString(3, type.wireName());
            ps.setString(4, text);
            ps.setTimestamp(5, Timestamp.valueOf(LocalDateTime.ofInstant(now, ZoneOffset.UTC)));
            return ps;
        }, keys);
        return new AgentEvent(keys.getKey().longValue(), agentId, AgentIds.ownerOf(agentId), sessionId, type.wireName(),
                payload, now);
    }

    /** The id of the newest event, 0 when there is none. */
    public long lastId() {
        Long id = jdbc.queryForObject("select max(id) from agent_logs", Long.class);
        return id == null ? 0 : id;
    }

    /** The first {@code limit} events after {@code id}, in id order. */
    public List<AgentEvent> after(long id, int limit) {
        return jdbc.query(COLUMNS + " where id > ? order by id limit ?", this::row, id, limit);
    }

    /**
     * What a stream resumed after {@code id} missed: the newest {@code limit} events after it that match the filters
     * (null = any) and were stored at {@code notBefore} or later, in id order.
     */
    public List<AgentEvent> missed(long id, String agentId, String sessionId, Instant notBefore, int limit) {
        List<AgentEvent> rows = new ArrayList<>(newestFirst("id > ? and created_at >= ?", List.of(id,
                Timestamp.valueOf(LocalDateTime.ofInstant(notBefore, ZoneOffset.UTC))), agentId, sessionId, limit));
        Collections.reverse(rows);
        return rows;
    }

    /** The newest {@code limit} events that meet {@code where} (with {@code args}) and the filters (null = any). */
    private List<AgentEvent> newestFirst(String where, List<Object> whereArgs, String agentId, String sessionId,
                                         int limit) {
        StringBuilder sql = new StringBuilder(COLUMNS + " where " + where);
        List<Object> args = new ArrayList<>(whereArgs);
        if (agentId != null) {
            sql.append(" and agent_id = ?");
            args.add(agentId);
        }
        if (sessionId != null) {
            sql.append(" and session_id = ?");
            args.add(sessionId);
        }
        sql.append(" order by id desc limit ?");
        args.add(limit);
        return jdbc.query(sql.toString(), this::row, args.toArray());
    }

    /** The latest {@code limit} events matching the filters (null = any), oldest first. */
    public List<AgentEvent> latest(String agentId, String sessionId, int limit) {
        return latest(agentId, sessionId, limit, e -> e);
    }

    /**
     * The latest {@code limit} events matching the filters (null = any) that {@code view} keeps (it returns the
     * event as shown, or null to leave it out), oldest first. Reads back in pages until enough are kept.
     */
    public List<AgentEvent> latest(String agentId, String sessionId, int limit, UnaryOperator<AgentEvent> view) {
        List<AgentEvent> kept = new ArrayList<>();
        long before = Long.MAX_VALUE;
        int page = Math.max(limit, 100);
        // a viewer who may see little of a long log does not page through all of it
        for (int pages = 0; pages < MAX_PAGES && kept.size() < limit; pages++) {
            List<AgentEvent> rows = newestFirst("id < ?", List.of(before), agentId, sessionId, page);
            for (AgentEvent e : rows) {
                AgentEvent shown = view.apply(e);
                if (shown != null && kept.size() < limit) {
                    kept.add(shown);
                }
            }
            if (rows.size() < page) {
                break;
            }
            before = rows.get(rows.size() - 1).id();
        }
        Collections.reverse(kept);
        return kept;
    }

    private AgentEvent row(ResultSet rs, int n) throws SQLException {
        Instant created = rs.getTimestamp("created_at").toLocalDateTime().toInstant(ZoneOffset.UTC);
        String agentId = rs.getString("agent_id");
        return new AgentEvent(rs.getLong("id"), agentId, AgentIds.ownerOf(agentId), rs.getString("session_id"),
                rs.getString("type"), read(rs.getString("payload")), created);
    }

    private String write(Map<String, Object> payload) {
        try {
            return json.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("payload is not serialisable as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private Map<String, Object> read(String text) {
        try {
            return json.readValue(text, OBJECT);
        } catch (JsonProcessingException e) {
            return Map.of("unreadable_payload", text);
        }
    }
}
