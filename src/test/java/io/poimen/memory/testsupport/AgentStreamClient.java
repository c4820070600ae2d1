package io.poimen.memory.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.security.auth.TraceIds;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One open {@code GET /memory/agents/stream} over HTTP with a bearer token: every line received (read on a daemon
 * thread), whether the hub has ended the stream, and the response's trace id.
 */
public final class AgentStreamClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final HttpResponse<Stream<String>> response;
    private volatile boolean ended;

    /** Opens the stream at {@code uri} and waits for its first comment, so no event published later is missed. */
    public AgentStreamClient(HttpClient http, URI uri, String token) throws Exception {
        this(http, uri, token, null);
    }

    /** As {@link #AgentStreamClient(HttpClient, URI, String)}, resumed after {@code lastEventId} (null: live only). */
    public AgentStreamClient(HttpClient http, URI uri, String token, String lastEventId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        response = http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        Thread reader = new Thread(() -> {
            try {
                response.body().forEach(lines::add);
            } catch (RuntimeException e) {
                // closed by this side
            } finally {
                ended = true;
            }
        }, "sse-reader");
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> lines.stream().anyMatch(l -> l.contains("connected")));
    }

    public String traceId() {
        return response.headers().firstValue(TraceIds.RESPONSE_HEADER).orElseThrow();
    }

    /** The JSON of every agent event received so far. */
    public List<JsonNode> events() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith("data:")) {
                out.add(JSON.readTree(l.substring(5)));
            }
        }
        return out;
    }

    /** The SSE {@code id} of every event received so far, in the order received. */
    public List<Long> ids() {
        return lines.stream().filter(l -> l.startsWith("id:")).map(l -> Long.parseLong(l.substring(3).trim()))
                .toList();
    }

    public void awaitEvent(String type) {
        await().atMost(Duration.ofSeconds(20)).until(() -> events().stream()
                .anyMatch(e -> e.path("type").asText().equals(type)));
    }

    /** Waits until an event whose JSON contains {@code marker} has arrived. */
    public void awaitText(String marker) {
        await().atMost(Duration.ofSeconds(20)).until(() -> events().stream()
                .anyMatch(e -> e.toString().contains(marker)));
    }

    /** True once the hub has ended the response (the last line has been read). */
    public boolean ended() {
        return ended;
    }

    public String text() {
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        response.body().close();
    }
}
