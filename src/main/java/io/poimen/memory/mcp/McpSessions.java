package io.poimen.memory.mcp;

import io.poimen.memory.vault.NoteParser;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The MCP sessions the hub opened, in the notes database ({@code mcp_sessions}): a session is its id, the caller who
 * opened it and the client name its {@code initialize} gave, nothing a replica holds in memory, so every replica
 * serves every request of every session. A session nobody named for {@code idleTimeout} (on the database's clock)
 * is gone; such rows are deleted whenever a session is opened.
 */
public class McpSessions {
    static final int MAX_CLIENT_NAME = 1024;
    private static final int MAX_ID = 64;
    /** Named within the idle timeout (its milliseconds the parameter), on the database's clock. */
    private static final String FRESH = "last_used > localtimestamp - (cast(? as bigint) * interval '0.001' second)";
    /** How stale {@code last_used} may get before a request writes it again: one write a minute per busy session. */
    private static final long TOUCH_MILLIS = 60_000;

    /** An open session: its id and the {@code clientInfo.name} of its {@code initialize} (null when it gave none). */
    public record Session(String id, String clientName) {
    }

    private record Row(String ownerKey, String clientName, boolean stale) {
    }

    private final JdbcTemplate jdbc;
    private final long idleMillis;

    public McpSessions(DataSource dataSource, Duration idleTimeout) {
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("poimen.mcp.session-idle-timeout must be positive; got " + idleTimeout);
        }
        this.jdbc = new JdbcTemplate(dataSource);
        this.idleMillis = idleTimeout.toMillis();
    }

    /** Opens a session of {@code owner}; its new id (random, as unguessable as a UUID from a secure random). */
    public String open(String owner, String clientName) {
        jdbc.update("delete from mcp_sessions where not (" + FRESH + ")", idleMillis);
        String id = UUID.randomUUID().toString();
        String name = clientName == null || clientName.length() <= MAX_CLIENT_NAME ? clientName
                : clientName.substring(0, MAX_CLIENT_NAME);
        jdbc.update("insert into mcp_sessions (id, owner_key, client_name, created_at, last_used) "
                + "values (?, ?, ?, localtimestamp, localtimestamp)", id, key(owner), name);
        return id;
    }

    /** The session {@code id} when {@code owner} opened it and it is not gone; else null, however it is not theirs. */
    public Session find(String id, String owner) {
        if (id.length() > MAX_ID) {
            return null;
        }
        List<Row> rows = jdbc.query("select owner_key, client_name, case when last_used < localtimestamp - "
                        + "(cast(? as bigint) * interval '0.001' second) then 1 else 0 end as stale from mcp_sessions "
                        + "where id = ? and " + FRESH,
                (rs, n) -> new Row(rs.getString(1), rs.getString(2), rs.getInt(3) == 1), TOUCH_MILLIS, id, idleMillis);
        if (rows.isEmpty() || !rows.get(0).ownerKey().equals(key(owner))) {
            return null;
        }
        if (rows.get(0).stale()) {
            jdbc.update("update mcp_sessions set last_used = localtimestamp where id = ?", id);
        }
        return new Session(id, rows.get(0).clientName());
    }

    /** Ends the session {@code id}; false when there was none. */
    public boolean end(String id) {
        return jdbc.update("delete from mcp_sessions where id = ?", id) > 0;
    }

    private static String key(String owner) {
        return NoteParser.contentHash(owner.getBytes(StandardCharsets.UTF_8));
    }
}
