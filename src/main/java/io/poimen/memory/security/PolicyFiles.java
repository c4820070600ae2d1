package io.poimen.memory.security;

import io.poimen.memory.config.StrictYaml;
import io.poimen.memory.config.WatchedYamlFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access-policy YAML files, re-read when their modification time or size changes (one stat per lookup, so an edit
 * applies to the next request). Unlike {@link WatchedYamlFile}, a file that stops parsing does NOT keep its last
 * good content: it becomes {@link Loaded#unparseable}, and the caller denies (fail closed). A key the policy does not
 * know, or a value of the wrong type, is such an error too; the log names the file, line and key.
 */
final class PolicyFiles {
    private static final Logger log = LoggerFactory.getLogger(PolicyFiles.class);

    /** A policy file's state: absent, parsed (value), or unparseable (error). */
    record Loaded<T>(T value, String error, boolean present) {
        boolean unparseable() {
            return present && error != null;
        }
    }

    private record Entry(FileTime modified, long size, Loaded<?> loaded) {
    }

    private final Map<String, Entry> cache = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    /** {@code key} tells apart parses of one file that depend on who asks (one cache entry per file and key). */
    <T> Loaded<T> load(Path file, String key, Function<Map<String, Object>, T> parser) {
        String cacheKey = file + "\u0000" + key;
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            cache.remove(cacheKey);
            return new Loaded<>(null, null, false);
        } catch (IOException e) {
            return unreadable(file, e);
        }
        if (!attrs.isRegularFile()) {
            return report(file, new Loaded<>(null, "not a regular file", true));
        }
        Entry e = cache.get(cacheKey);
        if (e != null && e.modified().equals(attrs.lastModifiedTime()) && e.size() == attrs.size()) {
            return (Loaded<T>) e.loaded();
        }
        Loaded<T> loaded;
        try {
            loaded = new Loaded<>(StrictYaml.parse(file, parser), null, true);
            log.debug("loaded access policy {}", file);
        } catch (IOException | RuntimeException ex) {
            loaded = report(file, new Loaded<>(null, ex.getMessage() == null ? ex.toString() : ex.getMessage(), true));
        }
        cache.put(cacheKey, new Entry(attrs.lastModifiedTime(), attrs.size(), loaded));
        return loaded;
    }

    private static <T> Loaded<T> unreadable(Path file, IOException e) {
        return report(file, new Loaded<>(null, "unreadable: " + e.getMessage(), true));
    }

    private static <T> Loaded<T> report(Path file, Loaded<T> loaded) {
        log.error("access policy {} does not parse; access it governs is DENIED until it is fixed: {}", file,
                loaded.error());
        return loaded;
    }
}
