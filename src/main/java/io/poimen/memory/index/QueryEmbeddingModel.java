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

    /** Loads {@code choice}'s ONNX file (from its artifact or its folder; about a second). */
    public static QueryEmbeddingModel load(EmbeddingModelChoice choice, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("query embedding threads must be >= 1, got " + threads);
        }
        try (InputStream tokenizer = choice.tokenizer();
             OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            OrtSession session = choice.session(env, options);
            return new QueryEmbeddingModel(new OnnxBertBiEncoder(env, session, tokenizer, choice.pooling()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (OrtException | RuntimeException e) {
            if (choice.folder() != null) {
                throw choice.unreadable(e);
            }
            throw new IllegalStateException("cannot open the query session of " + choice.id(), e);
        }
    }

    @Override
    protected OnnxBertBiEncoder model() {
        return encoder;
    }
}
