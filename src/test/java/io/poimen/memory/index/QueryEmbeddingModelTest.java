package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.EmbeddingModel;
import org.apache.lucene.util.VectorUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class QueryEmbeddingModelTest {

    /** The query session must give the vectors the stored chunks were embedded with, for every model. */
    @ParameterizedTest
    @MethodSource("io.poimen.memory.index.EmbeddingModelChoice#builtIns")
    void embedsLikeTheModelItIsASessionOf(EmbeddingModelChoice choice) {
        EmbeddingModel ingest = choice.load();
        EmbeddingModel query = QueryEmbeddingModel.load(choice, 1);
        for (String text : new String[] {"how do I restart the ingest worker", "kubectl rollout undo", "ok"}) {
            float[] a = ingest.embed(text).content().vector();
            float[] b = query.embed(text).content().vector();
            assertThat(b).hasSize(384).hasSameSizeAs(a);
            assertThat(VectorUtil.cosine(a, b)).as(text).isGreaterThan(0.9999f);
        }
        float[] other = query.embed("a completely different sentence about cooking pasta").content().vector();
        float[] kubectl = ingest.embed("kubectl rollout undo").content().vector();
        assertThat(VectorUtil.cosine(kubectl, other)).isLessThan(0.9f);
    }

    @Test
    void refusesZeroThreads() {
        assertThatThrownBy(() -> QueryEmbeddingModel.load(EmbeddingModelChoice.defaultChoice(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(">= 1");
    }
}
