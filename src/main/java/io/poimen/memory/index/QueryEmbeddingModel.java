package io.poimen.memory.index;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The configured model's weights in an ONNX session of its own for query texts, with {@code threads} intra-op
 * threads (1 by default). The ingest model's session keeps ONNX Runtime's default of one thread per core; for a
 * query of a few words that pool only spins next to the lexical and TF-IDF branches running at the same time,
 * and a query embedding took 2× the model alone inside the route. Same model file, same tokenizer, same pooling
 * and normalisation as langchain4j's classes, so the vectors match the stored ones.
 */
public final class QueryEmbeddingModel extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder encoder;

    private QueryEmbeddingModel(OnnxBertBiEncoder encoder) {
        super(Runnable::run);
        this.encoder = encoder;
    }

    /** Loads {@code choice}'s ONNX file from its artifact (about a second). */
    public static QueryEmbeddingModel load(EmbeddingModelChoice choice, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("query embedding threads must be >= 1, got " + threads);
        }
        String base = choice.id(); // each artifact holds <id>.onnx and <id>-tokenizer.json
        ClassLoader loader = QueryEmbeddingModel.class.getClassLoader();
        try (InputStream model = loader.getResourceAsStream(base + ".onnx");
             InputStream tokenizer = loader.getResourceAsStream(base + "-tokenizer.json");
             OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            if (model == null || tokenizer == null) {
                throw new IllegalStateException("model files of " + choice.id() + " not on the classpath");
            }
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            OrtSession session = env.createSession(model.readAllBytes(), options);
            return new QueryEmbeddingModel(new OnnxBertBiEncoder(env, session, tokenizer, choice.pooling()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (OrtException e) {
            throw new IllegalStateException("cannot open the query session of " + choice.id(), e);
        }
    }

    @Override
    protected OnnxBertBiEncoder model() {
        return encoder;
    }
}
