package io.poimen.memory.retrieval.select;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link SessionContexts} in this process: the embedded default, where one process answers every request. At most
 * {@code maxSessions} sessions (least recently used leave first), each forgotten {@code ttl} after its last turn,
 * and at most {@code maxTokens} prompt tokens stored per session (a longer previous prompt can share at most that
 * many tokens with the next one).
 */
public class InMemorySessionContexts implements SessionContexts {

    private record Entry(Previous previous, Instant lastUsed) {
    }

    private final int maxSessions;
    private final Duration ttl;
    private final int maxTokens;
    private final Clock clock;
    private final LinkedHashMap<Key, Entry> sessions = new LinkedHashMap<>(64, 0.75f, true);

    public InMemorySessionContexts(int maxSessions, Duration ttl, int maxTokens, Clock clock) {
        SessionContexts.checkLimits(maxSessions, ttl, maxTokens);
        this.maxSessions = maxSessions;
        this.ttl = ttl;
        this.maxTokens = maxTokens;
        this.clock = clock;
    }

    @Override
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

    /** Keeps this turn's context; turns of one session in this process follow each other, so never refused. */
    @Override
    public synchronized boolean remember(Key key, Previous read, List<String> chunkIds, int[] promptTokens) {
        Instant now = clock.instant();
        sessions.put(key, new Entry(new Previous(chunkIds, SessionContexts.kept(promptTokens, maxTokens), 0), now));
        for (Iterator<Map.Entry<Key, Entry>> it = sessions.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Entry> oldest = it.next();
            if (sessions.size() > maxSessions || expired(oldest.getValue(), now)) {
                it.remove();
            } else {
                break; // access order: the rest were used more recently
            }
        }
        return true;
    }

    @Override
    public synchronized int trim() {
        Instant now = clock.instant();
        int before = sessions.size();
        sessions.values().removeIf(e -> expired(e, now));
        return before - sessions.size();
    }

    public synchronized int size() {
        return sessions.size();
    }

    private boolean expired(Entry e, Instant now) {
        return !e.lastUsed().plus(ttl).isAfter(now);
    }
}
