package io.poimen.memory.mcp;

import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.springframework.http.HttpHeaders;

/**
 * Calls the hub's own routes for an MCP tool, as the HTTP API would: the caller's {@code Authorization} header goes
 * on the message, so the routes resolve the same caller and apply the same access checks and error mapping.
 */
public class HubCalls {

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

    public Answer call(String endpoint, String authorization, Object body, Map<String, Object> headers) {
        Exchange done = producer.send(endpoint, ex -> {
            ex.getMessage().setHeaders(new java.util.HashMap<>(headers));
            if (authorization != null) {
                ex.getMessage().setHeader(HttpHeaders.AUTHORIZATION, authorization);
            }
            ex.getMessage().setBody(body);
            // the audit rows of the call carry the MCP request's own X-Trace-Id when it runs on that request
            String trace = org.slf4j.MDC.get(io.poimen.memory.security.TraceIdFilter.MDC_KEY);
            if (trace != null) {
                ex.setProperty(io.poimen.memory.security.ExchangeSecurity.TRACE_PROPERTY, trace);
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
