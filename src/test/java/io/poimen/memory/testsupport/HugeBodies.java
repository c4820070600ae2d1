package io.poimen.memory.testsupport;

import io.poimen.memory.config.HttpProperties;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.springframework.util.unit.DataSize;

/**
 * Request bodies far over the hub's caps, generated while they are sent: a writer thread streams the body (with a
 * Content-Length, or chunked) while the test reads the answer, and stops as soon as the answer has come. What the
 * writer got out ({@link Sent#bodyBytesSent}) bounds what the hub can have read of the body: the socket buffers and
 * what Tomcat swallows after an early answer (at most 2 MB) come on top of what the hub's code read.
 */
public final class HugeBodies {
    private static final int PIECE = 64 * 1024;

    /** An endpoint that reads a request body, the Content-Type it takes, and its cap. */
    public record BodyEndpoint(String method, String path, String contentType,
                               Function<HttpProperties.MaxBody, DataSize> cap) {
        public long capBytes(HttpProperties http) {
            return cap.apply(http.maxBody()).toBytes();
        }

        /** The endpoint's headers, plus {@code more}. */
        public Map<String, String> headers(String... more) {
            Map<String, String> h = new LinkedHashMap<>();
            h.put("Content-Type", contentType);
            if (path.equals("/mcp")) {
                h.put("Accept", "application/json, text/event-stream");
            }
            for (int i = 0; i + 1 < more.length; i += 2) {
                h.put(more[i], more[i + 1]);
            }
            return h;
        }
    }

    /**
     * Every endpoint that reads a body: the REST routes, the query servlet, {@code /mcp}, and a form {@code PUT}
     * elsewhere (Spring's form filter read such bodies whole).
     */
    public static List<BodyEndpoint> bodyEndpoints() {
        String json = "application/json";
        return List.of(new BodyEndpoint("POST", "/memory/query", json, HttpProperties.MaxBody::query),
                new BodyEndpoint("POST", "/memory/grc/draft", json, HttpProperties.MaxBody::draft),
                new BodyEndpoint("POST", "/memory/agents/events", json, HttpProperties.MaxBody::agentEvent),
                new BodyEndpoint("POST", "/memory/admin/reindex", json, HttpProperties.MaxBody::other),
                new BodyEndpoint("POST", "/memory/webhooks/forgejo", json, HttpProperties.MaxBody::webhook),
                new BodyEndpoint("POST", "/mcp", json, HttpProperties.MaxBody::mcp),
                new BodyEndpoint("PUT", "/index.html", "application/x-www-form-urlencoded",
                        HttpProperties.MaxBody::other));
    }

    /** The answer, how many body bytes were written before it came, and how long the body would have been. */
    public record Sent(HostileRequests.Answer answer, long bodyBytesSent, long bodyLength) {
    }

    private HugeBodies() {
    }

    /**
     * Sends {@code method path} with {@code headers} (Host and Connection are added) and a body of {@code length}
     * bytes; {@code chunked}: Transfer-Encoding chunked, else a Content-Length of {@code declared} ({@code length}
     * when negative). A body of {@code length} 0 with a Content-Length sends only the head.
     */
    public static Sent send(int port, String method, String path, Map<String, String> headers, long length,
                            long declared, boolean chunked) throws Exception {
        return send(port, method, path, headers, length, declared, chunked, PIECE, 0, new AtomicLong());
    }

    /**
     * As {@link #send(int, String, String, Map, long, long, boolean)}, the body written in pieces of {@code piece}
     * bytes with {@code pauseMillis} between them (a slow client), counting in {@code sent} as it goes.
     */
    public static Sent send(int port, String method, String path, Map<String, String> headers, long length,
                            long declared, boolean chunked, int piece, long pauseMillis, AtomicLong sent)
            throws Exception {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Host", "127.0.0.1:" + port);
        all.putAll(headers);
        if (chunked) {
            all.put("Transfer-Encoding", "chunked");
        } else {
            all.put("Content-Length", Long.toString(declared >= 0 ? declared : length));
        }
        all.put("Connection", "close");
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        all.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("\r\n");
        byte[] bytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        AtomicBoolean answered = new AtomicBoolean();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            Thread writer = new Thread(() -> {
                byte[] bytesOfPiece = new byte[piece];
                Arrays.fill(bytesOfPiece, (byte) ' ');
                try {
                    out.write(bytes);
                    while (sent.get() < length && !answered.get()) {
                        int n = (int) Math.min(piece, length - sent.get());
                        if (chunked) {
                            out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                        }
                        out.write(bytesOfPiece, 0, n);
                        if (chunked) {
                            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                        }
                        out.flush();
                        sent.addAndGet(n);
                        if (pauseMillis > 0) {
                            Thread.sleep(pauseMillis); // a slow client's pace
                        }
                    }
                    if (chunked && !answered.get()) {
                        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    }
                    out.flush();
                } catch (IOException | InterruptedException e) {
                    // the hub answered and closed the connection: the rest of the body is not wanted
                }
            }, "huge-body-writer");
            writer.setDaemon(true);
            writer.start();
            HostileRequests.Answer answer;
            try {
                answer = readAnswer(socket.getInputStream(), method.equals("HEAD"));
            } finally {
                answered.set(true);
            }
            socket.close();
            writer.join(30_000);
            return new Sent(answer, sent.get(), length);
        }
    }

    /** Reads one answer: its head, then (unless it answers a HEAD) a body of its Content-Length, or its chunks. */
    static HostileRequests.Answer readAnswer(InputStream in, boolean toHead) throws IOException {
        HostileRequests.Answer head = HostileRequests.readStatusAndHeaders(in);
        int status = head.status();
        Map<String, String> headers = head.headers();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (toHead) {
            return new HostileRequests.Answer(status, headers, body.toByteArray());
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            for (int n; (n = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0; ) {
                body.write(in.readNBytes(n));
                line(in);
            }
        } else if (headers.containsKey("content-length")) {
            body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
        }
        return new HostileRequests.Answer(status, headers, body.toByteArray());
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int b; (b = in.read()) >= 0 && b != '\n'; ) {
            if (b != '\r') {
                s.append((char) b);
            }
        }
        return s.toString();
    }
}
