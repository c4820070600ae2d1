package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import org.apache.lucene.util.VectorUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SessionEmbeddingModelTest {
    /** langchain4j's own classes for the built-in models: the vectors the hub's sessions must give. */
    private static final Map<String, Supplier<EmbeddingModel>> REFERENCE = Map.of(
            "all-minilm-l6-v2-q", AllMiniLmL6V2QuantizedEmbeddingModel::new,
            "bge-small-en-v1.5-q", BgeSmallEnV15QuantizedEmbeddingModel::new,
            "e5-small-v2-q", E5SmallV2QuantizedEmbeddingModel::new);
    private static final List<String> TEXTS = List.of("how do I restart the ingest worker", "kubectl rollout undo",
            "ok", "Pods restart after a deploy when the readiness probe fails.",
            "a completely different sentence about cooking pasta");

    /** Queries and ingest (several texts at once) give the vectors of the model they are sessions of. */
    @ParameterizedTest
    @MethodSource("io.poimen.memory.index.EmbeddingModelChoice#builtIns")
    void embedsLikeTheModelItIsASessionOf(EmbeddingModelChoice choice) {
        EmbeddingModel reference = REFERENCE.get(choice.id()).get();
        EmbeddingModel query = SessionEmbeddingModel.forQueries(choice);
        EmbeddingModel ingest = choice.load(3);
        List<TextSegment> segments = TEXTS.stream().map(TextSegment::from).toList();
        List<float[]> batch = ingest.embedAll(segments).content().stream().map(e -> e.vector()).toList();
        assertThat(batch).hasSize(TEXTS.size());
        for (int i = 0; i < TEXTS.size(); i++) {
            float[] expected = reference.embed(TEXTS.get(i)).content().vector();
            assertThat(batch.get(i)).hasSize(384);
            assertThat(VectorUtil.cosine(expected, batch.get(i))).as("ingest, %s", TEXTS.get(i)).isGreaterThan(0.9999f);
            assertThat(VectorUtil.cosine(expected, query.embed(TEXTS.get(i)).content().vector()))
                    .as("query, %s", TEXTS.get(i)).isGreaterThan(0.9999f);
        }
        assertThat(VectorUtil.cosine(batch.get(1), batch.get(4))).isLessThan(0.9f);
    }

    /** Ingest runs the texts of a batch on its own pool, several at once; one at a time runs on the caller. */
    @Test
    void ingestEmbedsABatchOnItsOwnPool() {
        List<TextSegment> segments = TEXTS.stream().map(TextSegment::from).toList();
        List<Thread> made = new CopyOnWriteArrayList<>();
        ThreadFactory recording = task -> {
            Thread t = new Thread(task);
            t.setDaemon(true);
            made.add(t);
            return t;
        };
        SessionEmbeddingModel.forIngest(EmbeddingModelChoice.defaultChoice(), 2, recording).embedAll(segments);
        assertThat(made).hasSize(2); // a pool thread is made when a text is handed to it, up to two

        made.clear();
        SessionEmbeddingModel.forIngest(EmbeddingModelChoice.defaultChoice(), 1, recording).embedAll(segments);
        assertThat(made).isEmpty();
    }

    @Test
    void refusesZeroTextsAtOnce() {
        assertThatThrownBy(() -> SessionEmbeddingModel.forIngest(EmbeddingModelChoice.defaultChoice(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(">= 1");
    }
}
