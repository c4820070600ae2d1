package io.poimen.memory.agents;

import java.time.Instant;
import java.util.Map;

/**
 * One stored agent event (serialised snake_case; {@code type} is the wire name).
 *
 * @param id        ascending id of the {@code agent_logs} row
 * @param agentId   the stored id: {@code <owner>/<agent>} for a signed-in caller's agent (see {@link AgentIds})
 * @param user      the owner (caller subject) of the agent, or null for an event of the no-auth mode
 * @param sessionId the agent's run, or null when the agent did not name one
 * @param payload   the event's JSON object
 */
public record AgentEvent(long id, String agentId, String user, String sessionId, String type,
                         Map<String, Object> payload, Instant createdAt) {

    AgentEvent withPayload(Map<String, Object> newPayload) {
        return new AgentEvent(id, agentId, user, sessionId, type, newPayload, createdAt);
    }

    /** The event without its session id, which only its owner sees (an MCP session id is the owner's own). */
    AgentEvent withoutSession() {
        return sessionId == null ? this : new AgentEvent(id, agentId, user, null, type, payload, createdAt);
    }
}
