package io.poimen.memory.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.poimen.memory.security.auth.CallerFilter;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.auth.TraceIds;
import jakarta.servlet.http.HttpServletRequest;
import java.util.HashMap;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;

/**
 * Calls the hub's own routes for an MCP tool, as the HTTP API would. The {@code /mcp} request went through the
 * same security filter chain as the REST API (bearer validated, caller resolved by {@link CallerFilter}); its
 * caller and trace id travel in the MCP transport context and are bound to the route's exchange, so the routes'
 * {@code CallerResolver} sees the same caller and applies the same access checks, audit and error mapping.
 */
public class HubCalls {
    private static final String CALLER = "poimen.caller";
    private static final String TRACE_ID = "poimen.traceId";
    private static final String SESSION = "poimen.mcpSession";

    /** What a route answered: its HTTP status (200 unless the route set one) and JSON body. */
    public record Answer(int status, String json) {
        public boolean ok() {
            return status < 400;
        }
    }

    private final ProducerTemplate producer;

    public HubCalls(ProducerTemplate producer) {
        this.producer = producer;
    }

    /**
     * The MCP transport context of one {@code /mcp} request: the caller, trace id and MCP session the filters stored
     * on it.
     */
    public static McpTransportContext context(HttpServletRequest request) {
        Map<String, Object> values = new HashMap<>();
        Object caller = request.getAttribute(CallerFilter.ATTRIBUTE);
        Object traceId = request.getAttribute(TraceIds.ATTRIBUTE);
        Object session = request.getAttribute(McpSessionBinding.SESSION);
        if (caller != null) {
            values.put(CALLER, caller);
        }
        if (traceId != null) {
            values.put(TRACE_ID, traceId);
        }
        if (session != null) {
            values.put(SESSION, session);
        }
        return values.isEmpty() ? McpTransportContext.EMPTY : McpTransportContext.create(values);
    }

    /** The MCP session of the request {@code context} came from, or null (no session: no tool call gets here). */
    static McpSessions.Session session(McpTransportContext context) {
        return context != null && context.get(SESSION) instanceof McpSessions.Session s ? s : null;
    }

    public Answer call(String endpoint, McpTransportContext context, Object body, Map<String, Object> headers) {
        Exchange done = producer.send(endpoint, ex -> {
            if (context != null) {
                ExchangeSecurity.bind(ex, context.get(CALLER), context.get(TRACE_ID));
            }
            ex.getMessage().setHeaders(new HashMap<>(headers));
            ex.getMessage().setBody(body);
            // the audit rows of the call carry the MCP request's own X-Trace-Id when it runs on that request
            String trace = org.slf4j.MDC.get(io.poimen.memory.security.auth.TraceIdFilter.MDC_KEY);
            if (trace != null) {
                ex.setProperty(io.poimen.memory.security.auth.ExchangeSecurity.TRACE_PROPERTY, trace);
            }
        });
        if (done.getException() != null) {
            throw new IllegalStateException(endpoint + " failed: " + done.getException().getMessage(),
                    done.getException());
        }
        Integer status = done.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
        return new Answer(status != null ? status : 200, done.getMessage().getBody(String.class));
    }
}
