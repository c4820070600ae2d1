package io.poimen.memory.retrieval.select;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The last context of each agent session, kept in memory so the next turn can keep its prefix. Keyed by the
 * caller's subject and the session id, so one caller never sees (or extends) another's session. Bounded: at most
 * {@code maxSessions} sessions (least recently used leave first), each forgotten {@code ttl} after its last turn,
 * and at most {@code maxTokens} prompt tokens stored per session (a longer previous prompt can share at most that
 * many tokens with the next one).
 *
 * <p>Only chunk ids and token ids are stored, never handed out: the next turn's context is built from that turn's
 * selection, which passed that turn's access checks, so a chunk the caller may no longer read cannot come back.
 */
public class SessionContexts {

    public record Key(String subject, String sessionId) {
        public Key {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /** A session's previous context: its chunk ids in order and the tokens of its prompt (maybe cut). */
    public record Previous(List<String> chunkIds, int[] promptTokens) {
        public Previous {
            chunkIds = List.copyOf(chunkIds);
        }
    }

    private record Entry(Previous previous, Instant lastUsed) {
    }

    private final int maxSessions;
    private final Duration ttl;
    private final int maxTokens;
    private final Clock clock;
    private final LinkedHashMap<Key, Entry> sessions = new LinkedHashMap<>(64, 0.75f, true);

    public SessionContexts(int maxSessions, Duration ttl, int maxTokens, Clock clock) {
        if (maxSessions < 1 || maxTokens < 1 || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("session limits must be positive: max-sessions " + maxSessions
                    + ", ttl " + ttl + ", max-tokens " + maxTokens);
        }
        this.maxSessions = maxSessions;
        this.ttl = ttl;
        this.maxTokens = maxTokens;
        this.clock = clock;
    }

    /** The session's previous context, or null when there is none or it expired. */
    public synchronized Previous previous(Key key) {
        Entry e = sessions.get(key);
        if (e == null) {
            return null;
        }
        if (expired(e, clock.instant())) {
            sessions.remove(key);
            return null;
        }
        return e.previous();
    }

    /** Stores this turn's context as the session's previous one (its prompt cut to {@code maxTokens}). */
    public synchronized void remember(Key key, List<String> chunkIds, int[] promptTokens) {
        Instant now = clock.instant();
        int[] kept = promptTokens.length > maxTokens ? Arrays.copyOf(promptTokens, maxTokens) : promptTokens;
        sessions.put(key, new Entry(new Previous(chunkIds, kept), now));
        for (Iterator<Map.Entry<Key, Entry>> it = sessions.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Entry> oldest = it.next();
            if (sessions.size() > maxSessions || expired(oldest.getValue(), now)) {
                it.remove();
            } else {
                break; // access order: the rest were used more recently
            }
        }
    }

    public synchronized int size() {
        return sessions.size();
    }

    private boolean expired(Entry e, Instant now) {
        return !e.lastUsed().plus(ttl).isAfter(now);
    }
}
