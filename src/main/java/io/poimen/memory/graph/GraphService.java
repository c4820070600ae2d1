package io.poimen.memory.graph;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/** Holds the current {@link LinkGraph}; the indexer swaps in a new snapshot after each sync. */
@Component
public class GraphService {
    private final AtomicReference<LinkGraph> current = new AtomicReference<>(LinkGraph.empty());

    public LinkGraph current() {
        return current.get();
    }

    /** Publishes {@code graph}; readers holding the previous snapshot keep a consistent view. */
    public void replace(LinkGraph graph) {
        current.set(Objects.requireNonNull(graph, "graph"));
    }
}
