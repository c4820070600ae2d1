package io.poimen.memory.index;

import dev.langchain4j.model.embedding.onnx.PoolingMode;
import io.poimen.memory.config.StartRefusedException;
import io.poimen.memory.config.StrictYaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An embedding model a team brings in a folder: an ONNX sentence-embedding model, its Hugging Face
 * {@code tokenizer.json} and the descriptor {@value #DESCRIPTOR}, read strictly (an unknown key, a wrong type or a
 * missing required key stops the start with the file, line and key):
 *
 * <pre>
 * name: multilingual-e5-small     # required: letters, digits, '.', '_', '-' (at most 64)
 * pooling: mean                   # required: mean or cls
 * dimensions: 384                 # required: size of its vectors, must be poimen.vector.dimensions
 * query_prefix: "query: "         # optional, default "": put before every query
 * passage_prefix: "passage: "     # optional, default "": put before every chunk
 * normalize: true                 # optional, default true; false is refused (the stores compare unit vectors)
 * model: model.onnx               # optional, default model.onnx: the ONNX file in the folder
 * tokenizer: tokenizer.json       # optional, default tokenizer.json
 * scripts: [latin, han, hiragana] # optional, default: every script; the scripts its model card says it reads
 * </pre>
 *
 * The model's id in the vector stores' record is {@code name@} and the first 12 hex digits of a SHA-256 over the
 * ONNX file, the tokenizer, the pooling and the passage prefix: everything a stored vector depends on. Changing any
 * of them (or the name) makes a new id, so the store is re-embedded as for a switch between built-in models; a
 * changed query prefix does not touch stored vectors and keeps the id.
 */
final class ModelFolder {
    static final String DESCRIPTOR = "poimen-model.yaml";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final int MAX_PREFIX = 256;
    private static final int MAX_DIMENSIONS = 4096; // what both vector stores take

    private ModelFolder() {
    }

    private record Descriptor(String name, PoolingMode pooling, Integer dimensions, String queryPrefix,
                              String passagePrefix, Boolean normalize, String model, String tokenizer,
                              ModelScripts scripts) {
    }

    /** @throws StartRefusedException naming the file (and the key) of the first problem */
    static EmbeddingModelChoice read(Path folder) {
        return read(folder, true);
    }

    /** {@link #read} without reading the model files: what the start-up check needs, in a fraction of the time. */
    static EmbeddingModelChoice check(Path folder) {
        return read(folder, false);
    }

    private static EmbeddingModelChoice read(Path folder, boolean digest) {
        Path file = folder.resolve(DESCRIPTOR);
        if (!Files.isRegularFile(file)) {
            throw refused(folder, "no " + DESCRIPTOR + " in the folder");
        }
        Descriptor d;
        try {
            // the arguments are read in order, so a bad value is reported at its own key
            d = StrictYaml.parse(file, y -> new Descriptor(name(y), pooling(y), dimensions(y), text(y, "query_prefix"),
                    text(y, "passage_prefix"), normalize(y), fileName(y, "model"), fileName(y, "tokenizer"),
                    scripts(y)));
        } catch (IOException e) {
            throw refused(folder, file + " is not readable: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw refused(folder, e.getMessage());
        }
        required(folder, file, "name", d.name());
        required(folder, file, "pooling", d.pooling());
        required(folder, file, "dimensions", d.dimensions());
        String model = d.model() == null ? "model.onnx" : d.model();
        String tokenizer = d.tokenizer() == null ? "tokenizer.json" : d.tokenizer();
        for (String[] f : new String[][] {{"model", model}, {"tokenizer", tokenizer}}) {
            if (!Files.isRegularFile(folder.resolve(f[1]))) {
                throw refused(folder, f[1] + " not found in the folder (key '" + f[0] + "' of " + file + ")");
            }
        }
        String passagePrefix = d.passagePrefix() == null ? "" : d.passagePrefix();
        String id = d.name();
        try {
            if (digest) {
                id += "@" + digest(folder.resolve(model), folder.resolve(tokenizer), d.pooling(), passagePrefix);
            }
        } catch (IOException e) {
            throw refused(folder, "cannot read " + model + " or " + tokenizer + ": " + e.getMessage());
        }
        return EmbeddingModelChoice.folder(id, d.queryPrefix() == null ? "" : d.queryPrefix(), passagePrefix,
                d.pooling(), d.dimensions(), folder, model, tokenizer, d.scripts());
    }

    private static void required(Path folder, Path file, String key, Object value) {
        if (value == null) {
            throw refused(folder, file + ": key '" + key + "' is required");
        }
    }

    private static String name(Map<String, Object> y) {
        String name = text(y, "name");
        if (name != null && !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("must be a letter or digit, then letters, digits, '.', '_' or '-' "
                    + "(at most 64), got '" + name + "'");
        }
        return name;
    }

    private static PoolingMode pooling(Map<String, Object> y) {
        String pooling = text(y, "pooling");
        if (pooling == null) {
            return null;
        }
        return switch (pooling.trim().toLowerCase(Locale.ROOT)) {
            case "mean" -> PoolingMode.MEAN;
            case "cls" -> PoolingMode.CLS;
            default -> throw new IllegalArgumentException("must be mean or cls, got '" + pooling + "'");
        };
    }

    private static Integer dimensions(Map<String, Object> y) {
        Object v = y.get("dimensions");
        if (v == null) {
            return null;
        }
        if (!(v instanceof Integer n) || n < 1 || n > MAX_DIMENSIONS) {
            throw new IllegalArgumentException("must be a whole number from 1 to " + MAX_DIMENSIONS + ", got " + v);
        }
        return n;
    }

    private static Boolean normalize(Map<String, Object> y) {
        Object v = y.get("normalize");
        if (v == null) {
            return null;
        }
        if (!(v instanceof Boolean b)) {
            throw new IllegalArgumentException("must be true or false, got " + v);
        }
        if (!b) {
            throw new IllegalArgumentException("false is not supported: the vector stores compare unit vectors, "
                    + "and the ONNX encoder normalises every vector it makes");
        }
        return b;
    }

    /** A list of Unicode script names or ISO 15924 codes; absent: {@link ModelScripts#ANY}. */
    private static ModelScripts scripts(Map<String, Object> y) {
        Object v = y.get("scripts");
        if (v == null) {
            return ModelScripts.ANY;
        }
        if (!(v instanceof List<?> list) || list.isEmpty() || !list.stream().allMatch(String.class::isInstance)) {
            throw new IllegalArgumentException("must be a list of script names such as [latin, han], got " + v);
        }
        return ModelScripts.of(list.stream().map(String.class::cast).toList());
    }

    /** A file name in the folder itself: no folder part, so the descriptor cannot point elsewhere. */
    private static String fileName(Map<String, Object> y, String key) {
        String name = text(y, key);
        if (name != null && (name.isBlank() || name.contains("/") || name.contains("\\") || name.startsWith("."))) {
            throw new IllegalArgumentException("must be the name of a file in the folder itself, got '" + name + "'");
        }
        return name;
    }

    private static String text(Map<String, Object> y, String key) {
        Object v = y.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException("must be text, got " + v);
        }
        if (s.length() > MAX_PREFIX || s.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("must be at most " + MAX_PREFIX + " characters without control "
                    + "characters");
        }
        return s;
    }

    /** First 12 hex digits of SHA-256 over the model file, the tokenizer, the pooling and the passage prefix. */
    private static String digest(Path model, Path tokenizer, PoolingMode pooling, String passagePrefix)
            throws IOException {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 20];
            for (Path p : new Path[] {model, tokenizer}) {
                try (InputStream in = Files.newInputStream(p)) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        sha.update(buffer, 0, n);
                    }
                }
                sha.update((byte) 0);
            }
            sha.update((pooling.name() + "\0" + passagePrefix).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static StartRefusedException refused(Path folder, String why) {
        return new StartRefusedException("poimen.embedding.model=" + folder + ": " + why,
                "Fix " + DESCRIPTOR + " or the folder (docs/retrieval.md, \"Bring your own model\").");
    }
}
