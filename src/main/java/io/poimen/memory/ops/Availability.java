package io.poimen.memory.ops;

/**
 * Whether a dependency of the query path answered lately (the embedding model with the vector store, the note
 * store). After a failure, queries go around it for a cool-down instead of waiting on it each time; the first
 * query after the cool-down tries it again.
 */
public class Availability {
    private final long coolDownMillis;
    private volatile long failedAt = -1;
    private volatile String lastFailure;

    public Availability(long coolDownMillis) {
        this.coolDownMillis = coolDownMillis;
    }

    public boolean available() {
        return failedAt < 0 || System.currentTimeMillis() - failedAt >= coolDownMillis;
    }

    public void failed(String reason) {
        lastFailure = reason;
        failedAt = System.currentTimeMillis();
    }

    public void succeeded() {
        failedAt = -1;
    }

    /** Why it failed last, for the {@code degraded} reasons. */
    public String lastFailure() {
        return lastFailure;
    }
}
