package io.poimen.memory.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A YAML file under {@code policies/} that operators edit at run time. {@link #get()} re-reads it when its
 * modification time changed (one stat per call), so an edit applies to the next request without a restart.
 * A file that does not parse, names a key its parser does not read, or holds a value of the wrong type keeps the
 * last good value; the error (file, line, key) is logged and kept in {@link #error()} until the file is fixed.
 */
public class WatchedYamlFile<T> {
    private static final Logger log = LoggerFactory.getLogger(WatchedYamlFile.class);
    private final Path file;
    private final Function<Map<String, Object>, T> parser;
    private volatile T value;
    private volatile FileTime seen;
    private volatile String error;

    public WatchedYamlFile(Path file, Function<Map<String, Object>, T> parser, T defaults) {
        this.file = file;
        this.parser = parser;
        this.value = defaults;
    }

    public T get() {
        FileTime now = modified();
        if (now != null && !now.equals(seen)) {
            synchronized (this) {
                if (!now.equals(seen)) {
                    reload(now);
                }
            }
        }
        return value;
    }

    private void reload(FileTime now) {
        seen = now;
        try {
            value = StrictYaml.parse(file, parser);
            error = null;
            log.info("loaded {}", file);
        } catch (IOException | RuntimeException e) {
            error = e.getMessage();
            log.error("{} not applied, keeping the previous settings: {}", file, e.getMessage());
        }
    }

    /** Why the file on disk is not the one in force (the previous version is), or null when it is. */
    public String error() {
        get();
        return error;
    }

    public Path file() {
        return file;
    }

    /** Reads a YAML mapping; an empty file is an empty map, anything other than a mapping is an error. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
            if (doc == null) {
                return Map.of();
            }
            if (!(doc instanceof Map)) {
                throw new IllegalArgumentException(file + " is not a YAML mapping");
            }
            return (Map<String, Object>) doc;
        }
    }

    private FileTime modified() {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return null;
        }
    }
}
