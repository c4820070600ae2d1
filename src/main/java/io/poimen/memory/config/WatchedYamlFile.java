package io.poimen.memory.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * A YAML file under {@code policies/} that operators edit at run time. {@link #get()} re-reads it when its
 * modification time or size changed (one stat per call), so an edit applies to the next request without a restart.
 * A file that does not parse, names a key its parser does not read, or holds a value of the wrong type keeps the
 * last good value ({@link LastGoodYamlFiles}, as the access policies); the error (file, line, key) is logged and
 * kept in {@link #error()} until the file is fixed. Until a first good version (and while the file is absent) the
 * defaults, or the last good value, apply.
 */
public class WatchedYamlFile<T> {
    private final Path file;
    private final Function<Map<String, Object>, T> parser;
    private final LastGoodYamlFiles versions = new LastGoodYamlFiles("policy file", "defaults in force");
    private volatile T value;

    public WatchedYamlFile(Path file, Function<Map<String, Object>, T> parser, T defaults) {
        this.file = file;
        this.parser = parser;
        this.value = defaults;
    }

    public T get() {
        T loaded = versions.load(file, "", parser).value();
        if (loaded != null) {
            value = loaded;
        }
        return value;
    }

    /** Why the file on disk is not the one in force (the previous version is), or null when it is. */
    public String error() {
        get();
        return versions.error(file);
    }

    public Path file() {
        return file;
    }
}
