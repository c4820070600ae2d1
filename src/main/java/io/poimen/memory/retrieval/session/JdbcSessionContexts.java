package io.poimen.memory.retrieval.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.retrieval.select.SessionContexts;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link SessionContexts} in the {@code session_contexts} table, shared by every replica on the database: a session
 * continues with the same prompt prefix whichever replica answers its next turn. Times are the database's clock.
 *
 * <p>Concurrency: a turn is stored only over the version it read ({@code update ... where version = ?}, or an insert
 * that the primary key refuses when another turn inserted first). Two replicas answering turns of one session at
 * once each read the same previous context; the first to store wins and the other's context is not stored, so the
 * row is always one whole turn's context, never a mix.
 *
 * <p>Bounds: a session read after {@code ttl} without a turn is absent (and its row replaced by the next turn);
 * {@link #trim} (the writer's {@code session-trim} route) deletes such rows and the least recently used beyond
 * {@code maxSessions}, so between two trims the table may exceed that by the sessions started meanwhile.
 *
 * <p>A database fault never fails or slows a query: the session starts over (no previous context, nothing stored)
 * and the database is left alone for {@code poimen.query.store-cool-down-ms}.
 */
public class JdbcSessionContexts implements SessionContexts {
    private static final Logger log = LoggerFactory.getLogger(JdbcSessionContexts.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> IDS = new TypeReference<>() { };
    /** Still within the ttl (its milliseconds the parameter), on the database's clock. */
    private static final String FRESH = "last_used > localtimestamp - (cast(? as bigint) * interval '0.001' second)";
    private static final String SET = "set chunk_ids = ?, prompt_tokens = ?, version = version + 1, "
            + "last_used = localtimestamp where session_key = ?";

    private final JdbcTemplate jdbc;
    private final int maxSessions;
    private final long ttlMillis;
    private final int maxTokens;
    private final Availability database;

    public JdbcSessionContexts(DataSource dataSource, int maxSessions, Duration ttl, int maxTokens,
                               Availability database) {
        SessionContexts.checkLimits(maxSessions, ttl, maxTokens);
        this.jdbc = new JdbcTemplate(dataSource);
        this.maxSessions = maxSessions;
        this.ttlMillis = ttl.toMillis();
        this.maxTokens = maxTokens;
        this.database = database;
    }

    @Override
    public Previous previous(Key key) {
        if (!database.available()) {
            return null;
        }
        try {
            List<Previous> rows = jdbc.query("select chunk_ids, prompt_tokens, version from session_contexts "
                            + "where session_key = ? and " + FRESH,
                    (rs, n) -> new Previous(ids(rs.getString(1)), tokens(rs.getBytes(2)), rs.getLong(3)),
                    storedKey(key), ttlMillis);
            database.succeeded();
            return rows.isEmpty() ? null : rows.get(0);
        } catch (DataAccessException e) {
            failed(e);
            return null;
        }
    }

    @Override
    public boolean remember(Key key, Previous read, List<String> chunkIds, int[] promptTokens) {
        if (!database.available()) {
            return false;
        }
        String k = storedKey(key);
        String ids = json(chunkIds);
        byte[] tokens = bytes(SessionContexts.kept(promptTokens, maxTokens));
        try {
            boolean stored;
            if (read != null) {
                stored = jdbc.update("update session_contexts " + SET + " and version = ?", ids, tokens, k,
                        read.version()) == 1;
            } else {
                // an expired row of this session counts as none: the turn replaces it
                stored = jdbc.update("update session_contexts " + SET + " and not (" + FRESH + ")", ids, tokens, k,
                        ttlMillis) == 1 || inserted(k, ids, tokens);
            }
            database.succeeded();
            if (!stored) {
                log.debug("another turn of a session was stored first; this turn's context is not kept");
            }
            return stored;
        } catch (DataAccessException e) {
            failed(e);
            return false;
        }
    }

    private boolean inserted(String key, String ids, byte[] tokens) {
        try {
            return jdbc.update("insert into session_contexts (session_key, chunk_ids, prompt_tokens, version, "
                    + "last_used) values (?, ?, ?, 1, localtimestamp)", key, ids, tokens) == 1;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }

    @Override
    public int trim() {
        int expired = jdbc.update("delete from session_contexts where not (" + FRESH + ")", ttlMillis);
        Long count = jdbc.queryForObject("select count(*) from session_contexts", Long.class);
        long over = count == null ? 0 : count - maxSessions;
        int evicted = over <= 0 ? 0 : jdbc.update("delete from session_contexts where session_key in "
                + "(select session_key from session_contexts order by last_used, session_key limit ?)", over);
        if (expired + evicted > 0) {
            log.debug("session contexts trimmed: {} expired, {} least recently used", expired, evicted);
        }
        return expired + evicted;
    }

    private void failed(DataAccessException e) {
        database.failed(e.getClass().getSimpleName() + ": " + e.getMostSpecificCause().getMessage());
        log.warn("session store failed, sessions start over until it answers again: {}", database.lastFailure());
    }

    /** The caller's subject and the session id, unambiguously (the subject's length first), as SHA-256 hex. */
    static String storedKey(Key key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha.digest((key.subject().length() + ":" + key.subject() + key.sessionId())
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private static String json(List<String> ids) {
        try {
            return JSON.writeValueAsString(ids);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("chunk ids do not serialize", e);
        }
    }

    private static List<String> ids(String json) {
        try {
            return JSON.readValue(json, IDS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("session_contexts.chunk_ids is not a JSON array of strings", e);
        }
    }

    static byte[] bytes(int[] tokens) {
        ByteBuffer b = ByteBuffer.allocate(tokens.length * Integer.BYTES);
        b.asIntBuffer().put(tokens);
        return b.array();
    }

    static int[] tokens(byte[] bytes) {
        int[] out = new int[bytes.length / Integer.BYTES];
        ByteBuffer.wrap(bytes).asIntBuffer().get(out);
        return out;
    }
}
