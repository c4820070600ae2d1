package io.poimen.memory.agents;

import io.poimen.memory.security.Caller;
import io.poimen.memory.security.CallerResolver;
import io.poimen.memory.security.ExchangeSecurity;
import io.poimen.memory.api.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultExchange;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /memory/agents/stream}: a Spring MVC endpoint because a Camel platform-http route answers once and
 * cannot hold a response open. The request passed the same security filter chain as the REST API; the caller is
 * resolved by the same {@link CallerResolver} as the Camel routes, from an exchange bound to this request.
 */
@RestController
class AgentStreamController {
    private final AgentStream stream;
    private final CallerResolver callers;
    private final AgentEventAccess access;
    private final CamelContext camel;

    AgentStreamController(AgentStream stream, CallerResolver callers, AgentEventAccess access, CamelContext camel) {
        this.stream = stream;
        this.callers = callers;
        this.access = access;
        this.camel = camel;
    }

    @GetMapping("/memory/agents/stream")
    SseEmitter stream(HttpServletRequest request,
                      @RequestParam(name = "agent_id", required = false) String agentId,
                      @RequestParam(name = "session_id", required = false) String sessionId) {
        Exchange exchange = new DefaultExchange(camel);
        ExchangeSecurity.bind(exchange, request);
        Caller caller = callers.caller(exchange);
        return stream.subscribe(access.viewer(caller, ExchangeSecurity.traceId(exchange)),
                blankToNull(agentId), blankToNull(sessionId));
    }

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Map<String, String>> failed(ApiException e) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", e.code());
        body.put("message", e.getMessage());
        return ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_JSON).body(body);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
