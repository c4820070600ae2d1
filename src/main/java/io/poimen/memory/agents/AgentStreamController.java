package io.poimen.memory.agents;

import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.config.SecuritySettings;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultExchange;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /memory/agents/stream}: a Spring MVC endpoint because a Camel platform-http route answers once and
 * cannot hold a response open. With {@code Last-Event-ID} (the id of the last event the client received, as an
 * EventSource sends it when it reconnects) the stream starts with what the client missed ({@link AgentEventFeed}).
 * The request passed the same security filter chain as the REST API; the caller is resolved by the same
 * {@link CallerResolver} as the Camel routes, from an exchange bound to this request. The stream lasts as long as
 * the request's bearer token is accepted; each event is decided under the policies in force when it is published
 * ({@link AgentEventAccess#subscriber}).
 */
@RestController
class AgentStreamController {
    private final AgentEventFeed feed;
    private final CallerResolver callers;
    private final AgentEventAccess access;
    private final CamelContext camel;
    private final SecuritySettings security;

    AgentStreamController(AgentEventFeed feed, CallerResolver callers, AgentEventAccess access, CamelContext camel,
                          SecuritySettings security) {
        this.feed = feed;
        this.callers = callers;
        this.access = access;
        this.camel = camel;
        this.security = security;
    }

    @GetMapping("/memory/agents/stream")
    SseEmitter stream(HttpServletRequest request,
                      @RequestParam(name = "agent_id", required = false) String agentId,
                      @RequestParam(name = "session_id", required = false) String sessionId,
                      @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        Long resumeAfter = eventId(lastEventId);
        Exchange exchange = new DefaultExchange(camel);
        ExchangeSecurity.bind(exchange, request);
        Caller caller = callers.caller(exchange);
        return feed.subscribe(access.subscriber(caller, ExchangeSecurity.traceId(exchange)),
                blankToNull(agentId), blankToNull(sessionId), tokenExpiry(), resumeAfter);
    }

    /** The id of {@code Last-Event-ID}, or null without one. */
    private static Long eventId(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String id = header.trim();
        if (id.length() > 18 || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw ApiException.badRequest("Last-Event-ID must be the id of an agent event (a whole number), got "
                    + (id.length() > 40 ? id.substring(0, 40) + "…" : id));
        }
        return Long.parseLong(id);
    }

    /**
     * When the request's bearer token stops being accepted (its {@code exp} plus the clock skew the decoder
     * allows, the instant REST starts answering 401), or null without a token (the no-auth mode).
     */
    private Instant tokenExpiry() {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth instanceof JwtAuthenticationToken jwt && jwt.getToken().getExpiresAt() != null) {
            return jwt.getToken().getExpiresAt().plus(security.clockSkew());
        }
        return null;
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
