package io.poimen.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The HTTP client of {@code bench latency}: {@code POST}s JSON over one kept-alive socket per calling thread,
 * blocking on that thread, with the request line, headers and body in a single write and {@code TCP_NODELAY}
 * on, as curl or Python's http.client send a small request. {@link java.net.HttpURLConnection} flushes its
 * headers before the body and builds a URL, a header map and a connection object per request: on two cores
 * that cost ~0.7 ms a request that is the client's, not the hub's, and "round trip − route" is meant to show
 * what the hub's HTTP layer costs.
 */
final class BenchHttpClient implements AutoCloseable {
    private final String host;
    private final int port;
    private final String headers;
    private final ThreadLocal<Connection> connections = new ThreadLocal<>();
    private final List<Connection> opened = new ArrayList<>();

    /** @param bearer sent as {@code Authorization: Bearer …} when not blank */
    BenchHttpClient(String host, int port, String path, String bearer) {
        this.host = host;
        this.port = port;
        this.headers = "POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                + (bearer == null || bearer.isBlank() ? "" : "Authorization: Bearer " + bearer + "\r\n");
    }

    /** Sends {@code body}; the answer's body when the status is 200, else an exception with status and body. */
    byte[] post(byte[] body) throws IOException {
        Connection c = connections.get();
        if (c == null) {
            c = open();
        }
        Response r;
        try {
            r = c.exchange(body);
        } catch (IOException e) {
            // the hub closed an idle connection between two requests: one retry on a new one
            c.close();
            c = open();
            r = c.exchange(body);
        }
        if (r.close) {
            c.close();
            connections.remove();
        }
        if (r.status != 200) {
            throw new IllegalStateException("HTTP " + r.status + ": " + new String(r.body, StandardCharsets.UTF_8));
        }
        return r.body;
    }

    private Connection open() throws IOException {
        Connection c = new Connection(new Socket(host, port));
        connections.set(c);
        synchronized (opened) {
            opened.add(c);
        }
        return c;
    }

    @Override
    public void close() {
        synchronized (opened) {
            opened.forEach(Connection::close);
            opened.clear();
        }
    }

    private record Response(int status, byte[] body, boolean close) {
    }

    private final class Connection {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            socket.setTcpNoDelay(true);
            this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            this.out = socket.getOutputStream();
        }

        Response exchange(byte[] body) throws IOException {
            byte[] head = (headers + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] request = new byte[head.length + body.length];
            System.arraycopy(head, 0, request, 0, head.length);
            System.arraycopy(body, 0, request, head.length, body.length);
            out.write(request);
            out.flush();
            String status = line();
            String[] parts = status.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP/1.x status line: " + status);
            }
            long length = -1;
            boolean chunked = false;
            boolean close = false;
            for (String h = line(); !h.isEmpty(); h = line()) {
                int colon = h.indexOf(':');
                String name = colon < 0 ? h : h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = colon < 0 ? "" : h.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.contains("chunked");
                    case "connection" -> close = value.contains("close");
                    default -> { }
                }
            }
            byte[] answer = chunked ? chunks() : length >= 0 ? exactly(length) : in.readAllBytes();
            return new Response(Integer.parseInt(parts[1]), answer, close || (!chunked && length < 0));
        }

        private byte[] chunks() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            while (true) {
                String size = line();
                int semicolon = size.indexOf(';');
                long n = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (n == 0) {
                    for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                        // trailers carry nothing the bench reads
                    }
                    return b.toByteArray();
                }
                b.write(exactly(n));
                line();
            }
        }

        private byte[] exactly(long n) throws IOException {
            byte[] b = in.readNBytes(Math.toIntExact(n));
            if (b.length < n) {
                throw new EOFException("the answer ended after " + b.length + " of " + n + " bytes");
            }
            return b;
        }

        private String line() throws IOException {
            StringBuilder s = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException("the connection closed inside the answer");
                }
                if (c != '\r') {
                    s.append((char) c);
                }
            }
            return s.toString();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket the hub may have closed already
            }
        }
    }
}
