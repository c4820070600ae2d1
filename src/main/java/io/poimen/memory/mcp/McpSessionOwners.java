package io.poimen.memory.mcp;

/**
 * Who opened each MCP session. The transport's session ids say nothing about the bearer, so the hub binds each id
 * to the caller whose {@code initialize} created it ({@link McpSessionBinding}) and answers every other caller as
 * if the id did not exist. Behind this interface so the binding can move to state the replicas share (a table)
 * when sessions span several replicas.
 */
public interface McpSessionOwners {

    /** Records {@code owner} as the owner of the new session {@code sessionId}. */
    void bind(String sessionId, String owner);

    /** The owner of {@code sessionId}, or null when no session of that id is known. */
    String ownerOf(String sessionId);

    /** Forgets a session that was deleted or that the transport no longer knows. */
    void forget(String sessionId);
}
