package io.poimen.memory.retrieval;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.config.WatchedYamlFile;
import java.nio.file.Path;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/** The current {@link RetrievalSettings}, re-read from {@code policies/retrieval.yaml} when it changes. */
@Component
public class RetrievalPolicy {
    private final WatchedYamlFile<RetrievalSettings> file;

    @Autowired
    public RetrievalPolicy(PoimenProperties properties) {
        this(properties.policies().dir());
    }

    public RetrievalPolicy(Path policiesDir) {
        this.file = new WatchedYamlFile<>(policiesDir.resolve("retrieval.yaml"), RetrievalSettings::fromYaml,
                RetrievalSettings.defaults());
    }

    public RetrievalSettings current() {
        return file.get();
    }

    /** The file, and why its version on disk is not in force (the previous one is), or null. */
    public WatchedYamlFile<RetrievalSettings> watched() {
        return file;
    }
}
