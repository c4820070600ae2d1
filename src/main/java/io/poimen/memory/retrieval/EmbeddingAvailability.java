package io.poimen.memory.retrieval;

/**
 * Whether the embedding model answered lately. After a failure, queries route to lexical search for a
 * cool-down instead of waiting on a broken model each time.
 */
public class EmbeddingAvailability {
    private final long coolDownMillis;
    private volatile long failedAt = -1;

    public EmbeddingAvailability(long coolDownMillis) {
        this.coolDownMillis = coolDownMillis;
    }

    public boolean available() {
        return failedAt < 0 || System.currentTimeMillis() - failedAt > coolDownMillis;
    }

    public void failed() {
        failedAt = System.currentTimeMillis();
    }

    public void succeeded() {
        failedAt = -1;
    }
}
