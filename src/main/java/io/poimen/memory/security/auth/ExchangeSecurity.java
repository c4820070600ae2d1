package io.poimen.memory.security.auth;

import io.poimen.memory.security.policy.Caller;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.springboot.PlatformHttpMessage;

/**
 * The security facts of a request as Camel beans see them. The platform-http consumer runs the route on its own
 * executor thread, not on the servlet thread, so the Spring {@code SecurityContextHolder} is empty there; the
 * servlet filters store the caller and trace id as request attributes (which a client cannot set) and
 * {@link RequestSecurityRoutePolicy} copies them into exchange properties when the exchange begins its first
 * route; properties survive message replacement ({@code convertBodyTo}), multicasts and direct hops.
 */
public final class ExchangeSecurity {
    public static final String CALLER_PROPERTY = "poimenCaller";
    public static final String TRACE_PROPERTY = "poimenTraceId";

    private ExchangeSecurity() {
    }

    /** The servlet request behind an HTTP exchange, or null for exchanges not started by platform-http. */
    public static HttpServletRequest request(Exchange exchange) {
        return exchange.getIn() instanceof PlatformHttpMessage m ? m.getRequest() : null;
    }

    /**
     * Binds an exchange that no platform-http consumer started (the SSE endpoint, MCP tool calls) to the caller and
     * trace id the servlet filters stored for {@code request}, so the {@link CallerResolver} decides as it does for
     * the REST API. Nothing is read from headers.
     */
    public static void bind(Exchange exchange, HttpServletRequest request) {
        bind(exchange, request.getAttribute(CallerFilter.ATTRIBUTE), request.getAttribute(TraceIds.ATTRIBUTE));
    }

    /** As {@link #bind(Exchange, HttpServletRequest)}, from values captured from the request earlier. */
    public static void bind(Exchange exchange, Object caller, Object traceId) {
        if (caller instanceof Caller c) {
            exchange.setProperty(CALLER_PROPERTY, c);
        }
        if (traceId instanceof String id) {
            exchange.setProperty(TRACE_PROPERTY, id);
        }
    }

    static Object requestAttribute(Exchange exchange, String name) {
        HttpServletRequest request = request(exchange);
        return request == null ? null : request.getAttribute(name);
    }

    /** The request's trace id (from {@code traceparent}, else generated), stable for the whole exchange. */
    public static String traceId(Exchange exchange) {
        String id = exchange.getProperty(TRACE_PROPERTY, String.class);
        if (id == null) {
            id = requestAttribute(exchange, TraceIds.ATTRIBUTE) instanceof String s ? s : TraceIds.generate();
            exchange.setProperty(TRACE_PROPERTY, id);
        }
        return id;
    }
}
