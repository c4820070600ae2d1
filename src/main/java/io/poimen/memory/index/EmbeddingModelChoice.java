package io.poimen.memory.index;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The in-process embedding models {@code poimen.embedding.model} can name. All are quantized, 384-dimensional
 * ONNX models shipped in Maven artifacts. BGE was trained with an instruction in front of queries (not of
 * passages), so queries get {@link #queryPrefix()}; E5 with "query: " in front of queries and "passage: " in
 * front of passages ({@link #passagePrefix()}); MiniLM with neither.
 */
public enum EmbeddingModelChoice {
    ALL_MINILM_L6_V2_Q("all-minilm-l6-v2-q", "", "", PoolingMode.MEAN, AllMiniLmL6V2QuantizedEmbeddingModel::new),
    BGE_SMALL_EN_V15_Q("bge-small-en-v1.5-q", "Represent this sentence for searching relevant passages: ", "",
            PoolingMode.CLS, BgeSmallEnV15QuantizedEmbeddingModel::new),
    E5_SMALL_V2_Q("e5-small-v2-q", "query: ", "passage: ", PoolingMode.MEAN, E5SmallV2QuantizedEmbeddingModel::new);

    private final String id;
    private final String queryPrefix;
    private final String passagePrefix;
    private final PoolingMode pooling;
    private final Supplier<EmbeddingModel> factory;

    EmbeddingModelChoice(String id, String queryPrefix, String passagePrefix, PoolingMode pooling,
                         Supplier<EmbeddingModel> factory) {
        this.id = id;
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
        this.pooling = pooling;
        this.factory = factory;
    }

    /** The name in configuration and in the vector stores' model record. */
    public String id() {
        return id;
    }

    /** Text put before a query (never before a chunk) when it is embedded. */
    public String queryPrefix() {
        return queryPrefix;
    }

    /** Text put before every chunk (never before a query) when it is embedded. */
    public String passagePrefix() {
        return passagePrefix;
    }

    /** How its token vectors become one vector, as langchain4j's class of the model loads it. */
    PoolingMode pooling() {
        return pooling;
    }

    /** Loads the model (reads its ONNX file from the classpath: about a second). */
    public EmbeddingModel load() {
        return factory.get();
    }

    /** The model used when {@code poimen.embedding.model} is not set. */
    public static EmbeddingModelChoice defaultChoice() {
        return ALL_MINILM_L6_V2_Q;
    }

    /** @throws IllegalArgumentException for an unknown name, listing the known ones */
    public static EmbeddingModelChoice of(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(m -> m.id.equals(n)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown poimen.embedding.model '" + name
                        + "', expected one of " + Arrays.stream(values()).map(EmbeddingModelChoice::id).toList()));
    }
}
