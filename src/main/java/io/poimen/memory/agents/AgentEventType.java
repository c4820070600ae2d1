package io.poimen.memory.agents;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What an agent reports: the steps of one run, as the agent workspace shows them. */
public enum AgentEventType {
    AGENT_STARTED, MEMORY_RETRIEVED, TOOL_INVOKED, TOOL_RESULT, AGENT_DECISION, AGENT_COMPLETE;

    /** The wire name, e.g. {@code memory_retrieved}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(AgentEventType::wireName).toList();
    }

    /** The type named {@code name}, or null when there is none. */
    public static AgentEventType fromWire(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst().orElse(null);
    }
}
