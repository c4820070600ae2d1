package io.poimen.memory.index;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import io.poimen.memory.config.StartRefusedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The in-process embedding model {@code poimen.embedding.model} names: one of the built-in models (quantized,
 * 384-dimensional ONNX models shipped in Maven artifacts) or a folder holding an ONNX model, its
 * {@code tokenizer.json} and a descriptor ({@link ModelFolder}). BGE was trained with an instruction in front of
 * queries (not of passages), so queries get {@link #queryPrefix()}; E5 with "query: " in front of queries and
 * "passage: " in front of passages ({@link #passagePrefix()}); MiniLM with neither. A folder's descriptor says its
 * own.
 */
public final class EmbeddingModelChoice {
    public static final EmbeddingModelChoice ALL_MINILM_L6_V2_Q = builtIn("all-minilm-l6-v2-q", "", "",
            PoolingMode.MEAN);
    public static final EmbeddingModelChoice BGE_SMALL_EN_V15_Q = builtIn("bge-small-en-v1.5-q",
            "Represent this sentence for searching relevant passages: ", "", PoolingMode.CLS);
    public static final EmbeddingModelChoice E5_SMALL_V2_Q = builtIn("e5-small-v2-q", "query: ", "passage: ",
            PoolingMode.MEAN);
    private static final List<EmbeddingModelChoice> BUILT_IN = List.of(ALL_MINILM_L6_V2_Q, BGE_SMALL_EN_V15_Q,
            E5_SMALL_V2_Q);
    private static final int BUILT_IN_DIMENSIONS = 384;

    private final String id;
    private final String queryPrefix;
    private final String passagePrefix;
    private final PoolingMode pooling;
    private final int dimensions;
    /** The ONNX file and the tokenizer: classpath resources of a built-in model, files of a folder model. */
    private final Path folder;
    private final String modelFile;
    private final String tokenizerFile;
    private final ModelScripts scripts;

    private EmbeddingModelChoice(String id, String queryPrefix, String passagePrefix, PoolingMode pooling,
                                 int dimensions, Path folder, String modelFile, String tokenizerFile,
                                 ModelScripts scripts) {
        this.id = id;
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
        this.pooling = pooling;
        this.dimensions = dimensions;
        this.folder = folder;
        this.modelFile = modelFile;
        this.tokenizerFile = tokenizerFile;
        this.scripts = scripts;
    }

    /**
     * Each built-in artifact holds {@code <id>.onnx} and {@code <id>-tokenizer.json}. All three were trained on
     * English text (their model cards), so they declare the Latin script.
     */
    private static EmbeddingModelChoice builtIn(String id, String queryPrefix, String passagePrefix,
                                                PoolingMode pooling) {
        return new EmbeddingModelChoice(id, queryPrefix, passagePrefix, pooling, BUILT_IN_DIMENSIONS, null,
                id + ".onnx", id + "-tokenizer.json", ModelScripts.LATIN);
    }

    /** A model read from {@code folder} (checked by {@link ModelFolder}); {@code id} names its files' contents. */
    static EmbeddingModelChoice folder(String id, String queryPrefix, String passagePrefix, PoolingMode pooling,
                                       int dimensions, Path folder, String modelFile, String tokenizerFile,
                                       ModelScripts scripts) {
        return new EmbeddingModelChoice(id, queryPrefix, passagePrefix, pooling, dimensions, folder, modelFile,
                tokenizerFile, scripts);
    }

    /**
     * The name in the vector stores' model record: a built-in model's id, or for a folder its descriptor's name and
     * a digest of what its vectors depend on ({@code name@0123456789ab}, {@link ModelFolder}).
     */
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

    /** How its token vectors become one vector. */
    PoolingMode pooling() {
        return pooling;
    }

    /** The scripts it reads (a folder's {@code scripts}; not declared: {@link ModelScripts#ANY}). */
    public ModelScripts scripts() {
        return scripts;
    }

    /** Size of its vectors. */
    public int dimensions() {
        return dimensions;
    }

    /** The folder a model was read from; null for a built-in model. */
    public Path folder() {
        return folder;
    }

    /**
     * The model for ingest, {@code texts} texts at once ({@link SessionEmbeddingModel#forIngest}; a built-in one
     * reads its ONNX file from the classpath: about a second), after embedding one text, so that ONNX Runtime
     * prepares its kernels at start-up rather than in the first batch.
     *
     * @throws StartRefusedException when a folder's files are not an ONNX model and a tokenizer, or its vectors
     *                               are not of the size its descriptor says
     */
    public EmbeddingModel load(int texts) {
        EmbeddingModel model = SessionEmbeddingModel.forIngest(this, texts);
        int size;
        try {
            size = model.embed("warm-up").content().vector().length;
        } catch (RuntimeException e) {
            if (folder == null) {
                throw e;
            }
            throw unreadable(e);
        }
        if (size != dimensions) {
            throw new StartRefusedException("poimen.embedding.model=" + (folder != null ? folder : id)
                    + ": its descriptor says dimensions: " + dimensions + " but the model makes " + size
                    + "-dimensional vectors", "Correct dimensions in " + ModelFolder.DESCRIPTOR + ".");
        }
        return model;
    }

    /** A session of the ONNX model with {@code options} (a folder's file is opened by path, never copied). */
    OrtSession session(OrtEnvironment env, OrtSession.SessionOptions options) throws OrtException, IOException {
        if (folder != null) {
            return env.createSession(folder.resolve(modelFile).toString(), options);
        }
        try (InputStream model = resource(modelFile)) {
            return env.createSession(model.readAllBytes(), options);
        }
    }

    /** The tokenizer's JSON. */
    InputStream tokenizer() throws IOException {
        return folder != null ? Files.newInputStream(folder.resolve(tokenizerFile)) : resource(tokenizerFile);
    }

    /** Why a folder model could not be opened, as the start-up error. */
    StartRefusedException unreadable(Exception e) {
        return new StartRefusedException("poimen.embedding.model=" + folder + ": " + modelFile + " and "
                + tokenizerFile + " could not be opened as an ONNX model and a Hugging Face tokenizer: "
                + e.getMessage(), "Put an ONNX export of a sentence-embedding model and its tokenizer.json "
                + "in the folder (docs/retrieval.md, \"Bring your own model\").", e);
    }

    private InputStream resource(String name) throws IOException {
        InputStream in = EmbeddingModelChoice.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException("model file " + name + " of " + id + " not on the classpath");
        }
        return in;
    }

    /** The built-in models, the default first. */
    public static List<EmbeddingModelChoice> builtIns() {
        return BUILT_IN;
    }

    /** The model used when {@code poimen.embedding.model} is not set. */
    public static EmbeddingModelChoice defaultChoice() {
        return ALL_MINILM_L6_V2_Q;
    }

    /**
     * The built-in model named {@code name} (trimmed, case-insensitive), else the model in the folder
     * {@code name} names.
     *
     * @throws StartRefusedException for a name that is neither, listing the built-in ones, and for a folder whose
     *                               descriptor or files are not right (naming the file and key)
     */
    public static EmbeddingModelChoice of(String name) {
        return of(name, true);
    }

    /**
     * The model {@code poimen.embedding.model} names ({@code setting}; null or blank: the default), whose vectors
     * must be of the vector store's size ({@code poimen.vector.dimensions}).
     *
     * @throws StartRefusedException as {@link #of}, and naming both sizes when they differ
     */
    public static EmbeddingModelChoice forSetting(String setting, int storeDimensions) {
        return checked(setting == null || setting.isBlank() ? defaultChoice() : of(setting), storeDimensions);
    }

    /** {@link #forSetting} without reading a folder's model files: the check before Spring creates any bean. */
    static void checkSetting(String setting, int storeDimensions) {
        checked(setting == null || setting.isBlank() ? defaultChoice() : of(setting, false), storeDimensions);
    }

    private static EmbeddingModelChoice checked(EmbeddingModelChoice choice, int storeDimensions) {
        if (choice.dimensions != storeDimensions) {
            throw new StartRefusedException("poimen.embedding.model=" + (choice.folder != null ? choice.folder
                    : choice.id) + " makes " + choice.dimensions + "-dimensional vectors but poimen.vector.dimensions "
                    + "is " + storeDimensions, "Set poimen.vector.dimensions to the model's size for a new vector "
                    + "store (docs/operations.md, Upgrades), or choose a model of the store's size.");
        }
        return choice;
    }

    private static EmbeddingModelChoice of(String name, boolean digest) {
        String n = name == null ? "" : name.trim();
        for (EmbeddingModelChoice m : BUILT_IN) {
            if (m.id.equals(n.toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        Path path = n.isEmpty() ? null : Path.of(n);
        if (path == null || !Files.isDirectory(path)) {
            throw new StartRefusedException("unknown poimen.embedding.model '" + name + "': neither one of "
                    + BUILT_IN.stream().map(EmbeddingModelChoice::id).toList() + " nor a folder",
                    "Name a built-in model, or a folder holding an ONNX model, its tokenizer.json and "
                            + ModelFolder.DESCRIPTOR + " (docs/retrieval.md, \"Bring your own model\").");
        }
        return digest ? ModelFolder.read(path) : ModelFolder.check(path);
    }

    @Override
    public String toString() {
        return id;
    }
}
