package io.poimen.memory.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Live agent events as Server-Sent Events. Each subscriber is an {@link SseEmitter} with optional agent and session
 * filters; a subscriber leaves the registry when it times out, fails, or a send to it fails, and when the bearer
 * token it subscribed with expires: then the stream ends (the client reconnects with a fresh token) and no event
 * is sent to it after that instant. A comment line goes to every subscriber at the heartbeat interval so proxies
 * keep the connection open and dead clients are found.
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

        Subscriber(SseEmitter emitter, AgentEventAccess.Viewer viewer, String agentId, String sessionId,
                   Instant until) {
            this.emitter = emitter;
            this.viewer = viewer;
            this.agentId = agentId;
            this.sessionId = sessionId;
            this.until = until;
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
     * subscriber's token; null: only the stream timeout ends it).
     */
    public SseEmitter subscribe(AgentEventAccess.Viewer viewer, String agentId, String sessionId, Instant until) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        Subscriber s = new Subscriber(emitter, viewer, AgentIds.filter(viewer.caller(), agentId), sessionId, until);
        subscribers.add(s);
        emitter.onCompletion(() -> leave(s));
        emitter.onTimeout(() -> {
            leave(s);
            emitter.complete();
        });
        emitter.onError(e -> leave(s));
        // the first bytes commit the response, so the client's EventSource opens now rather than at the first event
        send(s, SseEmitter.event().comment("connected"));
        if (until != null) {
            s.end = heartbeat.schedule(() -> expire(s), Math.max(0, Duration.between(Instant.now(), until).toMillis()),
                    TimeUnit.MILLISECONDS);
        }
        return emitter;
    }

    /** Sends {@code event}, as each subscriber may see it, to every subscriber whose filters match it. */
    public void publish(AgentEvent event) {
        for (Subscriber s : subscribers) {
            if (s.expired()) {
                expire(s);
                continue;
            }
            if (!s.mayWant(event)) {
                continue;
            }
            AgentEvent shown;
            String data;
            try {
                shown = s.viewer.view(event);
                if (shown == null || !s.wants(shown)) {
                    continue;
                }
                data = json.writeValueAsString(shown);
            } catch (JsonProcessingException | RuntimeException e) {
                log.warn("agent event {} not streamed to a subscriber: {}", event.id(), e.toString());
                continue;
            }
            send(s, SseEmitter.event().id(Long.toString(event.id())).name(EVENT_NAME)
                    .data(data, MediaType.APPLICATION_JSON));
        }
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
