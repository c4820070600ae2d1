package io.poimen.memory.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Live agent events as Server-Sent Events. Each subscriber is an {@link SseEmitter} with optional agent and session
 * filters; a subscriber leaves the registry when it times out, fails, or a send to it fails. A comment line goes to
 * every subscriber at the heartbeat interval so proxies keep the connection open and dead clients are found.
 */
public class AgentStream implements AutoCloseable {
    static final String EVENT_NAME = "agent_event";
    private static final Logger log = LoggerFactory.getLogger(AgentStream.class);

    private record Subscriber(SseEmitter emitter, AgentEventAccess.Viewer viewer, String agentId, String sessionId) {
        boolean wants(AgentEvent e) {
            return (agentId == null || agentId.equals(e.agentId()))
                    && (sessionId == null || sessionId.equals(e.sessionId()));
        }
    }

    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final ObjectMapper json;
    private final Duration timeout;
    private final ScheduledExecutorService heartbeat;

    public AgentStream(ObjectMapper json, Duration timeout, Duration heartbeatInterval) {
        this.json = json;
        this.timeout = timeout;
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "agent-stream-heartbeat");
            t.setDaemon(true);
            return t;
        });
        long ms = heartbeatInterval.toMillis();
        heartbeat.scheduleAtFixedRate(this::beat, ms, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * A new subscriber for events of {@code agentId} / {@code sessionId} (null = all; a bare agent id is the
     * viewer's own agent), each event as {@code viewer} may see it.
     */
    public SseEmitter subscribe(AgentEventAccess.Viewer viewer, String agentId, String sessionId) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        Subscriber s = new Subscriber(emitter, viewer, AgentIds.filter(viewer.caller(), agentId), sessionId);
        subscribers.add(s);
        emitter.onCompletion(() -> subscribers.remove(s));
        emitter.onTimeout(() -> {
            subscribers.remove(s);
            emitter.complete();
        });
        emitter.onError(e -> subscribers.remove(s));
        // the first bytes commit the response, so the client's EventSource opens now rather than at the first event
        send(s, SseEmitter.event().comment("connected"));
        return emitter;
    }

    /** Sends {@code event}, as each subscriber may see it, to every subscriber whose filters match it. */
    public void publish(AgentEvent event) {
        for (Subscriber s : subscribers) {
            if (!s.wants(event)) {
                continue;
            }
            AgentEvent shown;
            String data;
            try {
                shown = s.viewer().view(event);
                if (shown == null) {
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
            send(s, SseEmitter.event().comment("heartbeat"));
        }
    }

    private void send(Subscriber s, SseEmitter.SseEventBuilder event) {
        try {
            s.emitter().send(event);
        } catch (IOException | IllegalStateException e) {
            subscribers.remove(s);
            s.emitter().completeWithError(e);
        }
    }

    @Override
    public void close() {
        heartbeat.shutdownNow();
        subscribers.forEach(s -> s.emitter().complete());
        subscribers.clear();
    }
}
