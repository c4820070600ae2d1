package io.poimen.memory.graph;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/** Holds the current {@link LinkGraph}; the indexer swaps in a new snapshot after each sync. */
@Component
public class GraphService {
    /** A snapshot and its version: every {@link #replace} publishes a higher one. */
    public record Versioned(LinkGraph graph, long version) {
    }

    private final AtomicReference<Versioned> current = new AtomicReference<>(new Versioned(LinkGraph.empty(), 0));

    public LinkGraph current() {
        return current.get().graph();
    }

    /** The current snapshot with its version, read together. */
    public Versioned versioned() {
        return current.get();
    }

    /** Publishes {@code graph}; readers holding the previous snapshot keep a consistent view. */
    public void replace(LinkGraph graph) {
        Objects.requireNonNull(graph, "graph");
        current.updateAndGet(v -> new Versioned(graph, v.version() + 1));
    }
}
