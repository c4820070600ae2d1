package io.poimen.memory.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.retrieval.SelectedQuery;
import io.poimen.memory.retrieval.QueryResponse;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.api.ApiException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agent events in and out ({@code routes/agents.camel.yaml}): checks and stores posted events, streams each stored
 * event live, lists the log, and records the {@code memory_retrieved} event of a query that names an agent.
 */
public class AgentEvents {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    private static final Logger log = LoggerFactory.getLogger(AgentEvents.class);

    private final AgentLogStore store;
    private final AgentEventFeed feed;
    private final CallerResolver callers;
    private final AgentEventAccess access;
    private final ObjectMapper json;

    public AgentEvents(AgentLogStore store, AgentEventFeed feed, CallerResolver callers, AgentEventAccess access,
                       ObjectMapper json) {
        this.store = store;
        this.feed = feed;
        this.callers = callers;
        this.access = access;
        this.json = json;
    }

    /** {@code POST /memory/agents/events} {@code {agent_id, session_id?, type, payload?}} → the stored event, 201. */
    public AgentEvent record(Exchange exchange, @Body byte[] body) {
        Caller caller = callers.caller(exchange);
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("empty body: expected JSON {agent_id, session_id, type, payload}");
        }
        JsonNode node;
        try {
            node = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("malformed event JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiException.badRequest("unreadable body: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("an event is a JSON object {agent_id, session_id, type, payload}");
        }
        String agentId = AgentIds.stored(caller, id(node, "agent_id", true));
        String sessionId = id(node, "session_id", false);
        JsonNode typeNode = node.path("type");
        if (!typeNode.isMissingNode() && !typeNode.isNull() && !typeNode.isTextual()) {
            throw ApiException.badRequest("type must be a string, got " + typeNode.getNodeType().name().toLowerCase());
        }
        String typeName = typeNode.isTextual() ? typeNode.asText() : null;
        AgentEventType type = AgentEventType.fromWire(typeName);
        if (type == null) {
            throw ApiException.unprocessable("type must be one of " + AgentEventType.wireNames() + ", got "
                    + (typeName != null ? typeName : node.path("type").toString()));
        }
        JsonNode payload = node.path("payload");
        if (!payload.isMissingNode() && !payload.isNull() && !payload.isObject()) {
            throw ApiException.badRequest("payload must be a JSON object, got "
                    + payload.getNodeType().name().toLowerCase());
        }
        Map<String, Object> fields = payload.isObject()
                ? json.convertValue(payload, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {
                })
                : Map.of();
        // an event shows to the members of its project: only they may post into it
        if (fields.get("project") instanceof String project) {
            access.requireProject(caller, project, ExchangeSecurity.traceId(exchange));
        } else if (fields.containsKey("project")) {
            throw ApiException.badRequest("payload.project must be a string");
        }
        AgentEvent event = publish(agentId, sessionId, type, fields);
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 201);
        return event;
    }

    /** {@code GET /memory/agents/logs?agent_id=&session_id=&limit=}: the latest events, oldest first. */
    public Map<String, List<AgentEvent>> logs(Exchange exchange, @Header("agent_id") String agentId,
                                              @Header("session_id") String sessionId, @Header("limit") String limit) {
        Caller caller = callers.caller(exchange);
        int n = DEFAULT_LIMIT;
        if (limit != null && !limit.isBlank()) {
            try {
                n = Integer.parseInt(limit.trim());
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("limit must be a whole number, got " + limit);
            }
            if (n < 1 || n > MAX_LIMIT) {
                throw ApiException.unprocessable("limit must be between 1 and " + MAX_LIMIT + ", got " + n);
            }
        }
        AgentEventAccess.Viewer viewer = access.viewer(caller, ExchangeSecurity.traceId(exchange));
        String session = blankToNull(sessionId);
        // the session filter applies to the events as shown: another caller's session id is not shown to match
        return Map.of("events", store.latest(AgentIds.filter(caller, agentId), session, n, e -> {
            AgentEvent shown = viewer.view(e);
            return shown == null || session != null && !session.equals(shown.sessionId()) ? null : shown;
        }));
    }

    /**
     * After the query route's session step: when the request named an agent or a session, stores and streams
     * {@code memory_retrieved {query, project, strategy, chunks, scores}} (timed as {@code events}). The answer
     * passes through unchanged; a failure to record is logged and never fails the query.
     */
    public SelectedQuery memoryRetrieved(SelectedQuery q, Exchange exchange) {
        String agentId = blankToNull(q.request().agentId());
        String sessionId = blankToNull(q.request().sessionId());
        if (agentId == null && sessionId == null) {
            return q;
        }
        long t0 = System.nanoTime();
        QueryResponse response = q.response();
        try {
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("query", q.request().query());
            payload.put("project", response.project());
            payload.put("strategy", response.strategy());
            payload.put("chunks", response.results().stream().map(r -> {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("doc_id", r.docId());
                c.put("path", r.path());
                c.put("heading", r.heading());
                c.put("score", r.score());
                return c;
            }).toList());
            payload.put("scores", response.results().stream().map(QueryResponse.Result::score).toList());
            // the agent is the caller's own (ParseStep already answered bad ids with 400)
            String clientId = AgentIds.checkedClientId("agent_id", agentId != null ? agentId : "unknown");
            if (sessionId != null) {
                AgentIds.checkedSessionId("session_id", sessionId);
            }
            publish(AgentIds.stored(callers.caller(exchange), clientId), sessionId,
                    AgentEventType.MEMORY_RETRIEVED, payload);
        } catch (RuntimeException e) {
            log.warn("memory_retrieved for agent {} not recorded: {}", agentId, e.toString());
        }
        return q.with(response, q.rows(), q.trace().timed("events", t0));
    }

    /** Stores the event; the feed streams it to the live subscribers of every replica. */
    public AgentEvent publish(String agentId, String sessionId, AgentEventType type, Map<String, Object> payload) {
        AgentEvent event = store.append(agentId, sessionId, type, payload);
        feed.wake();
        return event;
    }

    private static String id(JsonNode node, String field, boolean agent) {
        JsonNode v = node.path(field);
        if (v.isMissingNode() || v.isNull()) {
            if (agent) {
                throw ApiException.unprocessable(field + " is required");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.badRequest(field + " must be a string, got " + v.getNodeType().name().toLowerCase());
        }
        return agent ? AgentIds.checkedClientId(field, v.asText()) : AgentIds.checkedSessionId(field, v.asText());
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
