package io.poimen.memory.cluster;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Traffic through the proxy while a replica dies: an MCP session calling tools one after the other (a call that
 * fails is tried once more), an agent posting events one after the other, and event streams through the proxy that
 * resume with {@code Last-Event-ID} when theirs ends ({@link #openStreamsUntilOneOn}).
 */
final class FailoverTraffic implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** An MCP tool call: when it started and ended, whether it needed its retry, and its error after the retry. */
    record Call(long startNanos, long endNanos, boolean retried, String error) {
    }

    final List<Call> calls = new CopyOnWriteArrayList<>();
    /** The events acknowledged (201): id → {@link System#nanoTime()} before their POST. */
    final Map<Long, Long> posted = new ConcurrentHashMap<>();
    final AtomicInteger postsRefused = new AtomicInteger();
    final List<ResumingEventStream> streams = new ArrayList<>();
    final String agent;
    private final String proxy;
    private final Supplier<String> agentToken;
    private final McpSyncClient mcp;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;

    FailoverTraffic(RoundRobinProxy proxy, Supplier<String> agentToken, String run) {
        this.proxy = proxy.url();
        this.agentToken = agentToken;
        this.agent = "failover-" + run;
        this.mcp = McpClients.connect(this.proxy, agentToken, agent);
        start("failover-mcp", this::callTools);
        start("failover-poster", this::postEvents);
    }

    /**
     * Opens streams of {@code viewer} through the proxy, one after the other, until one is answered by the replica
     * on {@code port} (the proxy picks the replica; other traffic goes through it meanwhile); keeps them all.
     */
    void openStreamsUntilOneOn(int port, Supplier<String> viewer, int most, Duration connectBound) {
        for (int i = 0; i < most; i++) {
            ResumingEventStream stream = new ResumingEventStream(proxy, viewer);
            streams.add(stream);
            await("stream " + i + " connected").atMost(connectBound).pollInterval(Duration.ofMillis(50))
                    .until(stream::connected);
            if (stream.upstream() == port) {
                return;
            }
        }
        throw new AssertionError("no stream of " + most + " on the replica of port " + port);
    }

    private void start(String name, Runnable loop) {
        Thread t = new Thread(loop, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void callTools() {
        for (int i = 0; !stopped; i++) {
            McpSchema.CallToolRequest call = i % 2 == 0
                    ? new McpSchema.CallToolRequest("read_note", Map.of("path", "projects/poimen/tools/kubectl.md"))
                    : new McpSchema.CallToolRequest("list_skills", Map.of());
            long start = System.nanoTime();
            String error = call(call);
            boolean retried = error != null;
            if (retried) {
                error = call(call);
            }
            calls.add(new Call(start, System.nanoTime(), retried, error));
        }
    }

    /** The call's error, or null when it answered a result that is not an error. */
    private String call(McpSchema.CallToolRequest call) {
        try {
            McpSchema.CallToolResult result = mcp.callTool(call);
            return Boolean.TRUE.equals(result.isError()) ? McpClients.text(result) : null;
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    private void postEvents() {
        for (int seq = 0; !stopped; seq++) {
            String body = JSON.createObjectNode().put("agent_id", agent).put("type", "tool_invoked")
                    .set("payload", JSON.createObjectNode().put("project", "poimen").put("seq", seq)).toString();
            long start = System.nanoTime();
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(proxy + "/memory/agents/events"))
                        .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + agentToken.get())
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 201) {
                    posted.put(JSON.readTree(r.body()).path("id").asLong(), start);
                } else {
                    postsRefused.incrementAndGet();
                }
                Thread.sleep(150); // an agent's pace: well under its writes limit (1200 a minute)
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                postsRefused.incrementAndGet(); // its replica died while answering
            }
        }
    }

    /** Stops calling and posting; the streams stay open until {@link #close}. */
    void stop() throws InterruptedException {
        stopped = true;
        for (Thread t : threads) {
            t.join(120_000);
        }
    }

    @Override
    public void close() throws Exception {
        stop();
        mcp.close();
        streams.forEach(ResumingEventStream::close);
    }
}
