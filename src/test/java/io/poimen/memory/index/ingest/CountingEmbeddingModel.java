package io.poimen.memory.index.ingest;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The real model, counting how many texts it embedded (to prove incremental ingest skips untouched notes). */
public class CountingEmbeddingModel implements EmbeddingModel {
    private final EmbeddingModel real;
    private final AtomicInteger texts = new AtomicInteger();

    public CountingEmbeddingModel(EmbeddingModel real) {
        this.real = real;
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        texts.addAndGet(segments.size());
        return real.embedAll(segments);
    }

    @Override
    public int dimension() {
        return real.dimension();
    }

    public int texts() {
        return texts.get();
    }

    public void reset() {
        texts.set(0);
    }
}
