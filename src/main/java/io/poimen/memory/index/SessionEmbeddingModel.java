package io.poimen.memory.index;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The configured model's weights in an ONNX session the hub opens itself, each text run on one ONNX thread: queries
 * one at a time on the caller's thread ({@link #forQueries}), ingest several texts at once on a pool of its own
 * ({@link #forIngest}). langchain4j's model classes keep ONNX Runtime's default of one intra-op thread per core for
 * each text while they run a text per core at once: on 2 cores four threads that spin-wait for each other. For a
 * query of a few words that pool only spun next to the lexical and TF-IDF branches (a query embedding took 2× the
 * model alone inside the route); for ingest it halved the model's own rate and took CPU from the parse, the writes
 * and the stores beside it (docs/operations.md, "Ingest: one ONNX thread per text"). Same model file, tokenizer,
 * pooling and normalisation as langchain4j's classes, so the vectors match theirs.
 */
public final class SessionEmbeddingModel extends AbstractInProcessEmbeddingModel {
    private static final AtomicInteger POOLS = new AtomicInteger();
    private final OnnxBertBiEncoder encoder;

    private SessionEmbeddingModel(Executor executor, OnnxBertBiEncoder encoder) {
        super(executor);
        this.encoder = encoder;
    }

    /** One text at a time, on the caller's thread. */
    public static SessionEmbeddingModel forQueries(EmbeddingModelChoice choice) {
        return load(choice, Runnable::run);
    }

    /**
     * {@code texts} texts of a batch at once, each on a thread of the model's own pool (threads end when idle for a
     * minute, so a hub that does not ingest holds none).
     */
    public static SessionEmbeddingModel forIngest(EmbeddingModelChoice choice, int texts) {
        int pool = POOLS.incrementAndGet();
        AtomicInteger thread = new AtomicInteger();
        return forIngest(choice, texts, task -> {
            Thread t = new Thread(task, "poimen-embed-" + pool + "-" + thread.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** As above, the pool's threads made by {@code threads}. */
    static SessionEmbeddingModel forIngest(EmbeddingModelChoice choice, int texts, ThreadFactory threads) {
        if (texts < 1) {
            throw new IllegalArgumentException("texts embedded at once must be >= 1, got " + texts);
        }
        if (texts == 1) {
            return load(choice, Runnable::run);
        }
        ThreadPoolExecutor executor = new ThreadPoolExecutor(texts, texts, 1, TimeUnit.MINUTES,
                new LinkedBlockingQueue<>(), threads);
        executor.allowCoreThreadTimeOut(true);
        return load(choice, executor);
    }

    /** Loads {@code choice}'s ONNX file (from its artifact or its folder; about a second). */
    private static SessionEmbeddingModel load(EmbeddingModelChoice choice, Executor executor) {
        try (InputStream tokenizer = choice.tokenizer();
             OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            OrtSession session = choice.session(env, options);
            return new SessionEmbeddingModel(executor,
                    new OnnxBertBiEncoder(env, session, tokenizer, choice.pooling()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (OrtException | RuntimeException e) {
            if (choice.folder() != null) {
                throw choice.unreadable(e);
            }
            throw new IllegalStateException("cannot open an ONNX session of " + choice.id(), e);
        }
    }

    @Override
    protected OnnxBertBiEncoder model() {
        return encoder;
    }
}
