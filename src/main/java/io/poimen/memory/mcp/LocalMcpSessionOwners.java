package io.poimen.memory.mcp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link McpSessionOwners} of one replica, in memory: the MCP transport keeps its sessions in memory as well. */
public class LocalMcpSessionOwners implements McpSessionOwners {
    private final Map<String, String> owners = new ConcurrentHashMap<>();

    @Override
    public void bind(String sessionId, String owner) {
        owners.put(sessionId, owner);
    }

    @Override
    public String ownerOf(String sessionId) {
        return owners.get(sessionId);
    }

    @Override
    public void forget(String sessionId) {
        owners.remove(sessionId);
    }
}
