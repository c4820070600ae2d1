package io.poimen.memory.retrieval;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.config.WatchedYamlFile;
import io.poimen.memory.index.EmbeddingModelChoice;
import java.nio.file.Path;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The current {@link RetrievalSettings}, re-read from {@code policies/retrieval.yaml} when it changes, with
 * {@code bonus_unit: auto} resolved for the embedding model as each version is read (not per query).
 */
@Component
public class RetrievalPolicy {
    private final WatchedYamlFile<RetrievalSettings> file;

    @Autowired
    public RetrievalPolicy(PoimenProperties properties, EmbeddingModelChoice model) {
        this(properties.policies().dir(), model);
    }

    /** The policy for the default embedding model. */
    public RetrievalPolicy(Path policiesDir) {
        this(policiesDir, EmbeddingModelChoice.defaultChoice());
    }

    public RetrievalPolicy(Path policiesDir, EmbeddingModelChoice model) {
        this.file = new WatchedYamlFile<>(policiesDir.resolve("retrieval.yaml"),
                y -> RetrievalSettings.fromYaml(y).forModel(model), RetrievalSettings.fromYaml(Map.of()).forModel(model));
    }

    public RetrievalSettings current() {
        return file.get();
    }

    /** The file, and why its version on disk is not in force (the previous one is), or null. */
    public WatchedYamlFile<RetrievalSettings> watched() {
        return file;
    }
}
