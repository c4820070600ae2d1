package io.poimen.memory.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A reverse proxy in front of the hub replicas, as a load balancer without session affinity: each request (not each
 * connection) goes to the next replica in turn. A replica that refuses the connection (killed) is skipped for that
 * request, as a load balancer's health check would take it out; a request it was answering when it died fails (502).
 * Responses are passed on as they come, an event stream line by line, never buffered whole; each names the replica
 * that answered in {@value #UPSTREAM} (its port), as a load balancer's access log would.
 */
final class RoundRobinProxy implements AutoCloseable {
    static final String UPSTREAM = "X-Upstream-Port";
    /** Hop-by-hop headers and those the connection to the replica sets itself. */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect");

    private final List<Integer> ports = new CopyOnWriteArrayList<>();
    private final AtomicLong next = new AtomicLong();
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "proxy");
        t.setDaemon(true);
        return t;
    });

    RoundRobinProxy(List<Integer> replicaPorts) throws IOException {
        ports.addAll(replicaPorts);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(threads);
        server.createContext("/", this::forward);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * Sends the request to the next replica that takes the connection. Each request has a connection of its own
     * ({@code Connection: close}), so a killed replica refuses the next one instead of failing a request on a
     * connection it left behind.
     */
    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            for (int tries = 0; tries < ports.size(); tries++) {
                int port = ports.get((int) Math.floorMod(next.getAndIncrement(), (long) ports.size()));
                HttpURLConnection upstream = request(exchange, port, body);
                try {
                    upstream.connect();
                } catch (ConnectException | SocketTimeoutException e) {
                    continue; // a replica that is gone: the next one answers this request
                }
                int status;
                try {
                    if (body.length > 0) {
                        try (OutputStream out = upstream.getOutputStream()) {
                            out.write(body);
                        }
                    }
                    status = upstream.getResponseCode();
                } catch (IOException e) {
                    exchange.sendResponseHeaders(502, -1); // it took the request and died before answering
                    return;
                }
                exchange.getResponseHeaders().set(UPSTREAM, Integer.toString(port));
                pass(upstream, status, exchange);
                return;
            }
            exchange.sendResponseHeaders(502, -1);
        } catch (IOException e) {
            // the replica died while answering, or the client went away: the connection ends here
        }
    }

    private static HttpURLConnection request(HttpExchange exchange, int port, byte[] body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + exchange.getRequestURI())
                .toURL().openConnection();
        c.setRequestMethod(exchange.getRequestMethod());
        c.setInstanceFollowRedirects(false);
        c.setUseCaches(false);
        c.setConnectTimeout(5000);
        for (Map.Entry<String, List<String>> h : exchange.getRequestHeaders().entrySet()) {
            if (!NOT_FORWARDED.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                h.getValue().forEach(v -> c.addRequestProperty(h.getKey(), v));
            }
        }
        c.setRequestProperty("Connection", "close");
        if (body.length > 0) {
            c.setDoOutput(true);
            c.setFixedLengthStreamingMode(body.length);
        }
        return c;
    }

    private static void pass(HttpURLConnection upstream, int status, HttpExchange exchange) throws IOException {
        upstream.getHeaderFields().forEach((name, values) -> {
            if (name != null && !NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                exchange.getResponseHeaders().put(name, values);
            }
        });
        InputStream in = status >= 400 ? upstream.getErrorStream() : upstream.getInputStream();
        long length = upstream.getContentLengthLong();
        boolean empty = in == null || length == 0 || status == 204 || status == 304
                || exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, empty ? -1 : Math.max(length, 0));
        if (empty) {
            return;
        }
        try (in; OutputStream out = exchange.getResponseBody()) {
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                out.flush();
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
