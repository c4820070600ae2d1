package io.poimen.bench.faults;

import dev.langchain4j.model.embedding.EmbeddingModel;
import java.nio.file.Path;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Puts {@link FaultInjectedEmbeddingModel} around every embedding model the hub makes (ingest's and the query
 * route's), as the hub's own configuration made them: the fault is the only thing added.
 */
public class EmbeddingFaults implements BeanPostProcessor {
    private final Path failureFile;

    public EmbeddingFaults(Path failureFile) {
        this.failureFile = failureFile;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        return bean instanceof EmbeddingModel model ? new FaultInjectedEmbeddingModel(model, failureFile) : bean;
    }
}
