package io.poimen.memory.testsupport;

import io.poimen.memory.index.EmbeddingModelChoice;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Model folders made of a built-in model's own files: the ONNX model and tokenizer its langchain4j artifact loads
 * from the classpath, copied out as {@code model.onnx} and {@code tokenizer.json}, with a descriptor.
 */
public final class ModelFolders {
    private ModelFolders() {
    }

    /** {@code folder} holding {@code model}'s files and {@code descriptor} as poimen-model.yaml. */
    public static Path copyOf(EmbeddingModelChoice model, Path folder, String descriptor) {
        try {
            Files.createDirectories(folder);
            copy(model.id() + ".onnx", folder.resolve("model.onnx"));
            copy(model.id() + "-tokenizer.json", folder.resolve("tokenizer.json"));
            Files.writeString(folder.resolve("poimen-model.yaml"), descriptor);
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The descriptor that describes {@code model} as the built-in choice uses it, under {@code name}. */
    public static String descriptorOf(EmbeddingModelChoice model, String name, String pooling) {
        return "name: " + name + "\npooling: " + pooling + "\ndimensions: 384\nquery_prefix: \""
                + model.queryPrefix() + "\"\npassage_prefix: \"" + model.passagePrefix() + "\"\n";
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = ModelFolders.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " not on the classpath");
            }
            Files.copy(in, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
