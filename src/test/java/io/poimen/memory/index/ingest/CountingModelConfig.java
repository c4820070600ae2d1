package io.poimen.memory.index.ingest;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Replaces the embedding model with the same model wrapped in a counter. */
@TestConfiguration
public class CountingModelConfig {
    @Bean
    @Primary
    CountingEmbeddingModel countingEmbeddingModel() {
        return new CountingEmbeddingModel(new AllMiniLmL6V2QuantizedEmbeddingModel());
    }
}
