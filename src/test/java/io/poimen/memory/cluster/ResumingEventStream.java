package io.poimen.memory.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A client of {@code GET /memory/agents/stream} that does what an EventSource does: when the stream ends or breaks
 * it opens it again, sending the id of the last event it received as {@code Last-Event-ID}. Keeps every event with
 * the time it arrived, and every connection with the replica that answered it (the proxy's
 * {@link RoundRobinProxy#UPSTREAM} header).
 */
final class ResumingEventStream implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** An event: its SSE id, its JSON, and {@link System#nanoTime()} when its last line arrived. */
    record Received(long id, JsonNode event, long nanos) {
    }

    /** A connection: the replica's port (0 when it was refused), the Last-Event-ID it sent (-1: none), and when. */
    record Connection(int upstream, int status, long lastEventId, long nanos) {
    }

    final List<Received> events = new CopyOnWriteArrayList<>();
    final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final URI uri;
    private final Supplier<String> token;
    private final Thread reader;
    private volatile long lastId = -1;
    private volatile InputStream open;
    private volatile boolean closed;

    ResumingEventStream(String baseUrl, Supplier<String> token) {
        this.uri = URI.create(baseUrl + "/memory/agents/stream");
        this.token = token;
        this.reader = new Thread(this::run, "resuming-event-stream");
        reader.setDaemon(true);
        reader.start();
    }

    /** The replica that answered the current connection, once it has answered. */
    int upstream() {
        return connections.isEmpty() ? 0 : connections.get(connections.size() - 1).upstream();
    }

    boolean connected() {
        return !connections.isEmpty() && connections.get(connections.size() - 1).status() == 200;
    }

    private void run() {
        while (!closed) {
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream")
                        .header("Authorization", "Bearer " + token.get());
                long resumeAfter = lastId;
                if (resumeAfter >= 0) {
                    request.header("Last-Event-ID", Long.toString(resumeAfter));
                }
                HttpResponse<InputStream> response = HTTP.send(request.build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                int upstream = response.headers().firstValue(RoundRobinProxy.UPSTREAM).map(Integer::parseInt)
                        .orElse(0);
                open = response.body();
                connections.add(new Connection(upstream, response.statusCode(), resumeAfter, System.nanoTime()));
                if (response.statusCode() == 200) {
                    read(response.body());
                } else {
                    response.body().close();
                }
            } catch (IOException e) {
                // the replica died, or this client closed the stream: reconnect (or stop)
            } catch (InterruptedException e) {
                return;
            }
            if (!closed) {
                try {
                    Thread.sleep(200); // an EventSource's retry delay, shortened
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void read(InputStream body) throws IOException {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            long id = -1;
            StringBuilder data = new StringBuilder();
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.startsWith("id:")) {
                    id = Long.parseLong(line.substring(3).trim());
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5));
                } else if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        events.add(new Received(id, JSON.readTree(data.toString()), System.nanoTime()));
                        if (id >= 0) {
                            lastId = id;
                        }
                    }
                    id = -1;
                    data.setLength(0);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        reader.interrupt();
        InputStream body = open;
        if (body != null) {
            try {
                body.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
