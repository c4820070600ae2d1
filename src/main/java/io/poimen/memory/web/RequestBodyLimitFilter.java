package io.poimen.memory.web;

import io.poimen.memory.config.HttpProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.springframework.context.SmartLifecycle;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The one cap on request bodies ({@code poimen.http.max-body.*}), in front of everything that reads one: the
 * REST routes (platform-http), the query servlet, the MCP envelope filter and transport, Spring's own filters. A
 * {@code Content-Length} over the endpoint's cap is answered 413 before a byte is read; a body without a length
 * (chunked) is read to at most cap + 1 bytes and then answered 413. A body within its cap is read here, whole, and
 * handed on in memory ({@link BufferedBodyRequest}): nothing after this filter reads the connection, so no request
 * is inside a Camel route while its body is still arriving. When the hub stops (this filter is stopped before the
 * web server's graceful shutdown waits for open requests), a body still arriving is answered 503 at its next bytes
 * instead of holding the shutdown.
 */
public class RequestBodyLimitFilter extends OncePerRequestFilter implements SmartLifecycle {
    private static final int CHUNK = 8192;

    /** A cap and the configuration key that sets it. */
    record Limit(long bytes, String key) {
    }

    private final Map<String, Limit> byPath;
    private final Limit other;
    private volatile boolean stopping;

    public RequestBodyLimitFilter(HttpProperties.MaxBody max) {
        String key = "poimen.http.max-body.";
        this.byPath = Map.of(
                "/memory/query", new Limit(max.query().toBytes(), key + "query"),
                "/memory/grc/draft", new Limit(max.draft().toBytes(), key + "draft"),
                "/memory/agents/events", new Limit(max.agentEvent().toBytes(), key + "agent-event"),
                "/memory/webhooks/forgejo", new Limit(max.webhook().toBytes(), key + "webhook"),
                "/mcp", new Limit(max.mcp().toBytes(), key + "mcp"));
        this.other = new Limit(max.other().toBytes(), key + "other");
    }

    /** The cap of the request's path (exact paths; anything else takes {@code other}). */
    Limit limitOf(HttpServletRequest request) {
        return byPath.getOrDefault(request.getRequestURI(), other);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long length = request.getContentLengthLong();
        boolean unknownLength = length < 0 && request.getHeader("Transfer-Encoding") != null;
        if (length <= 0 && !unknownLength) {
            chain.doFilter(request, response);
            return;
        }
        Limit limit = limitOf(request);
        if (length > limit.bytes()) {
            tooLarge(request, response, limit, " (Content-Length " + length + ")");
            return;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream((int) Math.min(limit.bytes() + 1,
                Math.max(length, CHUNK)));
        InputStream in = request.getInputStream();
        byte[] buffer = new byte[CHUNK];
        try {
            // read() returns what has arrived, so a body still trickling in sees a shutdown at its next bytes
            for (int n; body.size() <= limit.bytes()
                    && (n = in.read(buffer, 0, (int) Math.min(CHUNK, limit.bytes() + 1 - body.size()))) >= 0; ) {
                body.write(buffer, 0, n);
                if (stopping) {
                    JsonErrorBody.write(response, 503, "unavailable", "the hub is shutting down; send the request "
                            + "again");
                    return;
                }
            }
        } catch (IOException e) {
            JsonErrorBody.write(response, 400, "bad_request", "the request body could not be read to its end");
            return;
        }
        if (body.size() > limit.bytes()) {
            tooLarge(request, response, limit, "");
            return;
        }
        chain.doFilter(new BufferedBodyRequest(request, body.toByteArray()), response);
    }

    private static void tooLarge(HttpServletRequest request, HttpServletResponse response, Limit limit, String got)
            throws IOException {
        JsonErrorBody.write(response, 413, "payload_too_large", request.getMethod() + " " + request.getRequestURI()
                + " takes a body of at most " + limit.bytes() + " bytes (" + limit.key() + ")" + got);
    }

    @Override
    public void start() {
        stopping = false;
    }

    /** Runs before the web server's graceful shutdown (a higher phase stops first). */
    @Override
    public void stop() {
        stopping = true;
    }

    @Override
    public boolean isRunning() {
        return !stopping;
    }

    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }
}
