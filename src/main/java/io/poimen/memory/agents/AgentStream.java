package io.poimen.memory.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Live agent events as Server-Sent Events, to the subscribers connected to this replica ({@link AgentEventFeed}
 * brings it every event, in id order). Each subscriber is an {@link SseEmitter} with optional agent and session
 * filters; a subscriber leaves the registry when it times out, fails, or a send to it fails, and when the bearer
 * token it subscribed with expires: then the stream ends (the client reconnects with a fresh token) and no event
 * is sent to it after that instant. A comment line goes to every subscriber at the heartbeat interval so proxies
 * keep the connection open and dead clients are found. Every event goes out with its id as the SSE {@code id}, and
 * a subscriber is sent each id at most once, in ascending order: it keeps the last id it was handed (sent, hidden
 * from it or filtered out) and skips any event at or below it.
 */
public class AgentStream implements AutoCloseable {
    static final String EVENT_NAME = "agent_event";
    private static final Logger log = LoggerFactory.getLogger(AgentStream.class);

    private static final class Subscriber {
        final SseEmitter emitter;
        final AgentEventAccess.Viewer viewer;
        final String agentId;
        final String sessionId;
        /** When the subscriber's token expires, or null (no token: the no-auth mode). */
        final Instant until;
        volatile ScheduledFuture<?> end;
        /** The id of the last event handed to this subscriber (guarded by this object). */
        long after;
        /** Live events held back while what the subscriber missed is sent (guarded by this object; null after). */
        List<AgentEvent> held = new ArrayList<>();

        Subscriber(SseEmitter emitter, AgentEventAccess.Viewer viewer, String agentId, String sessionId,
                   Instant until, long after) {
            this.emitter = emitter;
            this.viewer = viewer;
            this.agentId = agentId;
            this.sessionId = sessionId;
            this.until = until;
            this.after = after;
        }

        /** The filters on the stored event, before any read decision is made for it. */
        boolean mayWant(AgentEvent e) {
            return (agentId == null || agentId.equals(e.agentId()))
                    && (sessionId == null || sessionId.equals(e.sessionId()));
        }

        /** The session filter on the event as shown: another caller's session id is not shown, so never matches. */
        boolean wants(AgentEvent shown) {
            return sessionId == null || sessionId.equals(shown.sessionId());
        }

        boolean expired() {
            return until != null && !Instant.now().isBefore(until);
        }
    }

    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final ObjectMapper json;
    private final Duration timeout;
    private final ScheduledThreadPoolExecutor heartbeat;

    public AgentStream(ObjectMapper json, Duration timeout, Duration heartbeatInterval) {
        this.json = json;
        this.timeout = timeout;
        this.heartbeat = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "agent-stream-heartbeat");
            t.setDaemon(true);
            return t;
        });
        heartbeat.setRemoveOnCancelPolicy(true);
        long ms = heartbeatInterval.toMillis();
        heartbeat.scheduleAtFixedRate(this::beat, ms, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * A new subscriber for events of {@code agentId} / {@code sessionId} (null = all; a bare agent id is the
     * viewer's own agent), each event as {@code viewer} may see it, until {@code until} (the expiry of the
     * subscriber's token; null: only the stream timeout ends it), for the events after the id {@code after}: first
     * those of {@code missed} (read once the subscriber is registered, so that no event falls between them and the
     * live ones), then the live ones. When {@code missed} fails the stream ends (the client comes back).
     */
    public SseEmitter subscribe(AgentEventAccess.Viewer viewer, String agentId, String sessionId, Instant until,
                                long after, Supplier<List<AgentEvent>> missed) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        Subscriber s = new Subscriber(emitter, viewer, AgentIds.filter(viewer.caller(), agentId), sessionId, until,
                after);
        subscribers.add(s);
        emitter.onCompletion(() -> leave(s));
        emitter.onTimeout(() -> {
            leave(s);
            emitter.complete();
        });
        emitter.onError(e -> leave(s));
        // the first bytes commit the response, so the client's EventSource opens now rather than at the first event
        send(s, SseEmitter.event().comment("connected"));
        List<AgentEvent> backlog;
        try {
            backlog = missed.get();
        } catch (RuntimeException e) {
            log.warn("agent stream: the events missed after #{} not read: {}", after, e.toString());
            leave(s);
            send(s, SseEmitter.event().comment("missed events not readable now: reconnect"));
            emitter.complete();
            return emitter;
        }
        // one event at a time: live events meanwhile are held, not waiting for the whole backlog to be written
        for (AgentEvent e : backlog) {
            synchronized (s) {
                hand(s, e);
            }
        }
        synchronized (s) {
            s.held.forEach(e -> hand(s, e));
            s.held = null;
        }
        if (until != null) {
            s.end = heartbeat.schedule(() -> expire(s), Math.max(0, Duration.between(Instant.now(), until).toMillis()),
                    TimeUnit.MILLISECONDS);
        }
        return emitter;
    }

    /**
     * Sends {@code event}, as each subscriber may see it, to every subscriber whose filters match it. Events come
     * in ascending id order ({@link AgentEventFeed}).
     */
    public void publish(AgentEvent event) {
        for (Subscriber s : subscribers) {
            if (s.expired()) {
                expire(s);
                continue;
            }
            synchronized (s) {
                if (s.held != null) {
                    s.held.add(event);
                } else {
                    hand(s, event);
                }
            }
        }
    }

    /** Sends {@code event} to {@code s} if it comes after the last one handed to it and is shown to it. */
    private void hand(Subscriber s, AgentEvent event) {
        if (event.id() <= s.after) {
            return;
        }
        s.after = event.id();
        if (!s.mayWant(event)) {
            return;
        }
        String data;
        try {
            AgentEvent shown = s.viewer.view(event);
            if (shown == null || !s.wants(shown)) {
                return;
            }
            data = json.writeValueAsString(shown);
        } catch (JsonProcessingException | RuntimeException e) {
            log.warn("agent event {} not streamed to a subscriber: {}", event.id(), e.toString());
            return;
        }
        send(s, SseEmitter.event().id(Long.toString(event.id())).name(EVENT_NAME)
                .data(data, MediaType.APPLICATION_JSON));
    }

    public int subscriberCount() {
        return subscribers.size();
    }

    private void beat() {
        for (Subscriber s : subscribers) {
            if (s.expired()) {
                expire(s);
            } else {
                send(s, SseEmitter.event().comment("heartbeat"));
            }
        }
    }

    /** Ends the stream of a subscriber whose token has expired; the client reconnects with a fresh one. */
    private void expire(Subscriber s) {
        if (subscribers.remove(s)) {
            send(s, SseEmitter.event().comment("token expired: reconnect with a fresh token"));
            s.emitter.complete();
        }
    }

    private void leave(Subscriber s) {
        subscribers.remove(s);
        ScheduledFuture<?> end = s.end;
        if (end != null) {
            end.cancel(false);
        }
    }

    private void send(Subscriber s, SseEmitter.SseEventBuilder event) {
        try {
            s.emitter.send(event);
        } catch (IOException | IllegalStateException e) {
            leave(s);
            s.emitter.completeWithError(e);
        }
    }

    @Override
    public void close() {
        heartbeat.shutdownNow();
        subscribers.forEach(s -> s.emitter.complete());
        subscribers.clear();
    }
}
