package io.poimen.memory.index.ingest;

import dev.langchain4j.model.embedding.EmbeddingModel;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Counts what the hub's own embedding models embed: each model StoreConfig makes from the configuration (ingest's,
 * the query route's) is wrapped in its own counter. Ingest's is the one injected as {@link CountingEmbeddingModel}
 * (the query model is no autowire candidate), so queries do not change its count.
 */
@TestConfiguration
public class CountingModelConfig {
    @Bean
    static BeanPostProcessor countingEmbeddingModels() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof EmbeddingModel model ? new CountingEmbeddingModel(model) : bean;
            }
        };
    }
}
