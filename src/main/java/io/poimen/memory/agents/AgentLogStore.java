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
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

/** The {@code agent_logs} table (schema in {@code db/migration/common/V5__agent_logs.sql}); times stored as UTC. */
public class AgentLogStore {
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private static final int MAX_PAGES = 20;
    private final JdbcTemplate jdbc;
    private final ObjectMapper json;

    public AgentLogStore(DataSource dataSource, ObjectMapper json) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.json = json;
    }

    /** Appends the event and returns it with its id and time. */
    public AgentEvent append(String agentId, String sessionId, AgentEventType type, Map<String, Object> payload) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        String text = write(payload);
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
            StringBuilder sql = new StringBuilder(
                    "select id, agent_id, session_id, type, payload, created_at from agent_logs where id < ?");
            List<Object> args = new ArrayList<>();
            args.add(before);
            if (agentId != null) {
                sql.append(" and agent_id = ?");
                args.add(agentId);
            }
            if (sessionId != null) {
                sql.append(" and session_id = ?");
                args.add(sessionId);
            }
            sql.append(" order by id desc limit ?");
            args.add(page);
            List<AgentEvent> rows = jdbc.query(sql.toString(), this::row, args.toArray());
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
