package io.poimen.bench.faults;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Fault injection for load and fault runs ({@code bench serve --embedding-failure-file F}): the in-process model
 * fails while that file exists, as a broken or overloaded model server would. The model runs inside the hub, so
 * this is the only way to fail it from outside without stopping the hub.
 */
public class FaultInjectedEmbeddingModel implements EmbeddingModel {
    private final EmbeddingModel model;
    private final Path failureFile;

    public FaultInjectedEmbeddingModel(EmbeddingModel model, Path failureFile) {
        this.model = model;
        this.failureFile = failureFile;
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        if (Files.exists(failureFile)) {
            throw new IllegalStateException("embedding model offline: failure injected (" + failureFile + " exists)");
        }
        return model.embedAll(segments);
    }

    @Override
    public int dimension() {
        return model.dimension();
    }
}
