package io.poimen.memory.agents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Brings every stored agent event, whichever replica stored it, to this replica's live stream ({@link AgentStream}),
 * in id order, and resumes a stream where its client left it. One thread reads the events after the last one it
 * handed on ({@link AgentLogStore#after}) whenever it hears of new ones: on PostgreSQL from the ids every replica
 * announces at commit ({@link PostgresNotifications}), on H2 from {@link #wake} in this process. As events are
 * committed in id order, reading after the last id handed on never skips one.
 *
 * <p>A subscriber that comes back with the id of the last event it received ({@code Last-Event-ID}) first gets what
 * it missed from the table (at most {@code replayMax} events, none older than {@code replayWindow}), then the live
 * events; an event is sent at most once whichever way it comes ({@link AgentStream#subscribe}).
 */
public class AgentEventFeed implements SmartLifecycle, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AgentEventFeed.class);
    private static final int PAGE = 500;
    private static final long RETRY_MILLIS = 1000;

    /** How the feed hears of new events. */
    interface Signal extends AutoCloseable {
        /** Waits a while for news of new events; true when there may be some. */
        boolean await() throws InterruptedException;

        /** News of an event this process stored. */
        void wake();

        @Override
        void close();
    }

    private final AgentLogStore store;
    private final AgentStream stream;
    private final Signal signal;
    private final Duration replayWindow;
    private final int replayMax;
    private final Thread thread;
    private volatile long position;
    private volatile boolean running = true;

    AgentEventFeed(AgentLogStore store, AgentStream stream, Signal signal, Duration replayWindow, int replayMax) {
        this.store = store;
        this.stream = stream;
        this.signal = signal;
        this.replayWindow = replayWindow;
        this.replayMax = replayMax;
        this.thread = new Thread(this::run, "agent-event-feed");
        thread.setDaemon(true);
    }

    /** Starts reading after the newest stored event: once the context is up, the table migrated. */
    @Override
    public void start() {
        position = store.lastId();
        thread.start();
    }

    @Override
    public boolean isRunning() {
        return thread.isAlive();
    }

    @Override
    public void stop() {
        close();
    }

    /** The events stored by this process only: H2, where no other process writes the table. */
    static Signal inProcess() {
        return new Signal() {
            private final Semaphore news = new Semaphore(0);

            @Override
            public boolean await() throws InterruptedException {
                boolean any = news.tryAcquire(1, TimeUnit.SECONDS);
                news.drainPermits();
                return any;
            }

            @Override
            public void wake() {
                news.release();
            }

            @Override
            public void close() {
            }
        };
    }

    /** Tells the feed that this process stored an event. */
    public void wake() {
        signal.wake();
    }

    /**
     * A live stream for {@code viewer} (see {@link AgentStream#subscribe} for the filters and {@code until}), resumed
     * after the event {@code lastEventId} when the client names the last one it received, else live from now.
     */
    public SseEmitter subscribe(AgentEventAccess.Viewer viewer, String agentId, String sessionId, Instant until,
                                Long lastEventId) {
        String agent = AgentIds.filter(viewer.caller(), agentId);
        // an id above every stored one (a client of an older database) resumes from the newest event
        long from = lastEventId == null ? position : Math.min(lastEventId, store.lastId());
        Instant notBefore = Instant.now().minus(replayWindow);
        return stream.subscribe(viewer, agent, sessionId, until, from,
                () -> store.missed(from, agent, sessionId, notBefore, replayMax));
    }

    private void run() {
        boolean behind = true;
        while (running) {
            try {
                if (signal.await() || behind) {
                    behind = !catchUp();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.warn("agent event feed: {}", e.toString());
            }
        }
    }

    /** Hands on every event after {@link #position}; false when the table could not be read (tried again later). */
    private boolean catchUp() throws InterruptedException {
        try {
            List<AgentEvent> events;
            do {
                events = store.after(position, PAGE);
                for (AgentEvent e : events) {
                    stream.publish(e);
                    position = e.id();
                }
            } while (events.size() == PAGE && running);
            return true;
        } catch (RuntimeException e) {
            log.warn("agent events after #{} not read, trying again: {}", position, e.toString());
            Thread.sleep(RETRY_MILLIS);
            return false;
        }
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        signal.close();
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
