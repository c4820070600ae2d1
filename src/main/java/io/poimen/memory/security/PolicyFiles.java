package io.poimen.memory.security;

import io.poimen.memory.config.StrictYaml;
import io.poimen.memory.config.WatchedYamlFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access-policy YAML files, re-read when their modification time or size changes (one stat per lookup, so an edit
 * applies to the next request). As with {@link WatchedYamlFile}, a file that stops parsing (bad YAML, a key the
 * policy does not know, a value of the wrong type, not a readable regular file) keeps its last good version in
 * force, and {@link #rejected()} names the file, line and key until it is fixed. A file that has no good version
 * yet (broken since the hub started) is {@link Loaded#unparseable}, and the caller denies (fail closed).
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
    /** The last text of each file that parsed, for a unit that first asks while the file on disk is broken. */
    private final Map<Path, String> lastGood = new ConcurrentHashMap<>();
    private final Map<Path, String> rejected = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    /** {@code key} tells apart parses of one file that depend on who asks (one cache entry per file and key). */
    <T> Loaded<T> load(Path file, String key, Function<Map<String, Object>, T> parser) {
        String cacheKey = file + "\u0000" + key;
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            cache.remove(cacheKey);
            lastGood.remove(file);
            rejected.remove(file);
            return new Loaded<>(null, null, false);
        } catch (IOException e) {
            return rejected(file, cacheKey, "unreadable: " + e.getMessage(), parser, null);
        }
        Entry e = cache.get(cacheKey);
        if (e != null && e.modified().equals(attrs.lastModifiedTime()) && e.size() == attrs.size()) {
            return (Loaded<T>) e.loaded();
        }
        if (!attrs.isRegularFile()) {
            return rejected(file, cacheKey, file + ": not a regular file", parser, attrs);
        }
        String text;
        T value;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
            value = StrictYaml.parse(file, text, parser);
        } catch (IOException | RuntimeException ex) {
            return rejected(file, cacheKey, ex.getMessage() == null ? ex.toString() : ex.getMessage(), parser, attrs);
        }
        if (rejected.remove(file) != null) {
            log.info("access policy {} is valid again and in force", file);
        }
        lastGood.put(file, text);
        Loaded<T> loaded = new Loaded<>(value, null, true);
        cache.put(cacheKey, new Entry(attrs.lastModifiedTime(), attrs.size(), loaded));
        log.debug("loaded access policy {}", file);
        return loaded;
    }

    /** The policy files on disk that are not in force, with why (file, line, key) and what applies instead. */
    Map<String, String> rejected() {
        Map<String, String> out = new TreeMap<>();
        rejected.forEach((file, why) -> out.put(file.toString(), why));
        return out;
    }

    /** The file on disk does not parse: its last good version for this key, else for any key, else deny. */
    @SuppressWarnings("unchecked")
    private <T> Loaded<T> rejected(Path file, String cacheKey, String error, Function<Map<String, Object>, T> parser,
                                   BasicFileAttributes attrs) {
        Entry previous = cache.get(cacheKey);
        Loaded<T> kept = previous != null && !previous.loaded().unparseable() && previous.loaded().present()
                ? (Loaded<T>) previous.loaded() : earlierText(file, parser);
        Loaded<T> loaded = kept != null ? kept : new Loaded<>(null, error, true);
        String state = kept != null ? "rejected, previous version in force: " : "rejected, access it governs is DENIED: ";
        if (!(state + error).equals(rejected.put(file, state + error))) {
            log.error("access policy {} {}{}", file, state, error);
        }
        if (attrs != null) {
            cache.put(cacheKey, new Entry(attrs.lastModifiedTime(), attrs.size(), loaded));
        }
        return loaded;
    }

    private <T> Loaded<T> earlierText(Path file, Function<Map<String, Object>, T> parser) {
        String text = lastGood.get(file);
        if (text == null) {
            return null;
        }
        try {
            return new Loaded<>(StrictYaml.parse(file, text, parser), null, true);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
