package io.poimen.memory.retrieval.select;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The last context of each agent session, so the next turn can keep its prefix. Keyed by the caller's subject and
 * the session id, so one caller never sees (or extends) another's session. Bounded by the number of sessions, an
 * idle time after the last turn and the prompt tokens stored per session ({@code poimen.session.*}).
 *
 * <p>Only chunk ids and token ids are stored, never handed out: the next turn's context is built from that turn's
 * candidates, which passed that turn's access checks, so a chunk the caller may no longer read cannot come back.
 * {@link InMemorySessionContexts} keeps them in this process (the embedded default);
 * {@code retrieval.session.JdbcSessionContexts} in the notes database, so a session continues on any replica.
 */
public interface SessionContexts {

    record Key(String subject, String sessionId) {
        public Key {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /**
     * A session's previous context: its chunk ids in order and the tokens of its prompt (maybe cut), with the
     * version the store had when it was read (a shared store writes the next turn only over that version).
     */
    record Previous(List<String> chunkIds, int[] promptTokens, long version) {
        public Previous {
            chunkIds = List.copyOf(chunkIds);
        }
    }

    /** The session's previous context, or null when there is none or it expired. */
    Previous previous(Key key);

    /**
     * Stores this turn's context as the session's previous one (its prompt cut to the stored maximum).
     *
     * @param read what {@link #previous} answered for this turn (null: none)
     * @return false when another turn of the session was stored since {@code read} (that one stays)
     */
    boolean remember(Key key, Previous read, List<String> chunkIds, int[] promptTokens);

    /** Drops expired sessions and the least recently used beyond the maximum; the count dropped. */
    int trim();

    /** Stops the start on limits no store can keep. */
    static void checkLimits(int maxSessions, Duration ttl, int maxTokens) {
        if (maxSessions < 1 || maxTokens < 1 || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("session limits must be positive: max-sessions " + maxSessions
                    + ", ttl " + ttl + ", max-tokens " + maxTokens);
        }
    }

    /** The prompt tokens a store keeps: the first {@code maxTokens}. */
    static int[] kept(int[] promptTokens, int maxTokens) {
        return promptTokens.length > maxTokens ? Arrays.copyOf(promptTokens, maxTokens) : promptTokens;
    }
}
