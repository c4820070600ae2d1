package io.poimen.memory.agents;

import java.time.Instant;
import java.util.Map;

/**
 * One stored agent event (serialised snake_case; {@code type} is the wire name).
 *
 * @param id        ascending id of the {@code agent_logs} row
 * @param sessionId the agent's run, or null when the agent did not name one
 * @param payload   the event's JSON object
 */
public record AgentEvent(long id, String agentId, String sessionId, String type, Map<String, Object> payload,
                         Instant createdAt) {
}
