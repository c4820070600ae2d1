package io.poimen.memory.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YAML files under {@code policies/} or in the vault that operators edit at run time, re-read when their
 * modification time or size changes (one stat per lookup, so an edit applies to the next request). A file that
 * stops parsing (bad YAML, a key written twice, a key its parser does not know, a value of the wrong type, not a
 * readable regular file) keeps its last good version in force: the error (file, line, key) is logged once at ERROR
 * and {@link #rejected()} names it until the file is fixed. A file that has no good version yet (broken since the hub
 * started) is {@link Loaded#unparseable}; the caller decides what applies then (access policies deny,
 * {@link WatchedYamlFile} keeps its defaults). A file whose folder is not a folder (a path under a file) is absent,
 * as a missing one. The one mechanism behind both.
 */
public final class LastGoodYamlFiles {
    private static final Logger log = LoggerFactory.getLogger(LastGoodYamlFiles.class);

    /** A file's state: absent, parsed (value), or unparseable (error). */
    public record Loaded<T>(T value, String error, boolean present) {
        public boolean unparseable() {
            return present && error != null;
        }
    }

    private record Entry(FileTime modified, long size, Loaded<?> loaded) {
    }

    private record Rejection(String state, String error) {
        @Override
        public String toString() {
            return state + error;
        }
    }

    private final Map<String, Entry> cache = new ConcurrentHashMap<>();
    /** The last text of each file that parsed, for a unit that first asks while the file on disk is broken. */
    private final Map<Path, String> lastGood = new ConcurrentHashMap<>();
    /** The files on disk that are not in force: why (file, line, key) and what applies instead. */
    private final Map<Path, Rejection> rejected = new ConcurrentHashMap<>();
    private final String what;
    private final String withoutGoodVersion;

    /**
     * @param what               the files' kind in log lines ("access policy")
     * @param withoutGoodVersion what applies while a file has no good version ("access it governs is DENIED")
     */
    public LastGoodYamlFiles(String what, String withoutGoodVersion) {
        this.what = what;
        this.withoutGoodVersion = withoutGoodVersion;
    }

    @SuppressWarnings("unchecked")
    /** {@code key} tells apart parses of one file that depend on who asks (one cache entry per file and key). */
    public <T> Loaded<T> load(Path file, String key, Function<Map<String, Object>, T> parser) {
        String cacheKey = cacheKey(file, key);
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return absent(file, cacheKey);
        } catch (IOException e) {
            if (!Files.isDirectory(file.getParent())) {
                // its folder is a file (projects/p/index.md/_access.yaml): no folder, so no policy, as for a
                // missing one (a request naming a path under a note must not look like a broken policy)
                return absent(file, cacheKey);
            }
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
            log.info("{} {} is valid again and in force", what, file);
        }
        lastGood.put(file, text);
        Loaded<T> loaded = new Loaded<>(value, null, true);
        cache.put(cacheKey, new Entry(attrs.lastModifiedTime(), attrs.size(), loaded));
        log.debug("loaded {} {}", what, file);
        return loaded;
    }

    private static String cacheKey(Path file, String key) {
        return file + "\u0000" + key;
    }

    private <T> Loaded<T> absent(Path file, String cacheKey) {
        cache.remove(cacheKey);
        lastGood.remove(file);
        rejected.remove(file);
        return new Loaded<>(null, null, false);
    }

    /**
     * {@code file} while {@code culprits}, other files next to it, are rejected (misnamed copies such as
     * {@code _access.yml}, each with its {@code error}): a good {@code file} on disk stays in force; an absent one
     * keeps its last good version (it may have been renamed into a culprit), else it is {@link Loaded#unparseable}.
     * Each culprit is reported in {@link #rejected()} until {@link #culpritGone} is called for it.
     */
    public <T> Loaded<T> loadBeside(Path file, String key, List<Path> culprits, Function<Path, String> error,
                                    Function<Map<String, Object>, T> parser) {
        Loaded<T> loaded;
        if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            loaded = load(file, key, parser);
        } else {
            Loaded<T> kept = lastGood(file, cacheKey(file, key), parser);
            loaded = kept != null ? kept : new Loaded<>(null, error.apply(culprits.get(0)), true);
        }
        boolean inForce = loaded.present() && !loaded.unparseable();
        for (Path culprit : culprits) {
            Rejection why = new Rejection(inForce ? "rejected, previous version in force: "
                    : "rejected, " + withoutGoodVersion + ": ", error.apply(culprit));
            if (!why.equals(rejected.put(culprit, why))) {
                log.error("{} {} {}", what, culprit, why);
            }
        }
        return loaded;
    }

    /** {@code culprit} of {@link #loadBeside} is gone (renamed, removed): it is no longer reported. */
    public void culpritGone(Path culprit) {
        if (rejected.remove(culprit) != null) {
            log.info("{} {} is gone; the folder's policy is in force again", what, culprit);
        }
    }

    /** The files on disk that are not in force, with why (file, line, key) and what applies instead. */
    public Map<String, String> rejected() {
        Map<String, String> out = new TreeMap<>();
        rejected.forEach((file, why) -> out.put(file.toString(), why.toString()));
        return out;
    }

    /** Why {@code file} on disk is not in force (file, line, key), or null when it is (or is absent). */
    public String error(Path file) {
        Rejection r = rejected.get(file);
        return r == null ? null : r.error();
    }

    /** The file on disk does not parse: its last good version for this key, else for any key, else deny. */
    private <T> Loaded<T> rejected(Path file, String cacheKey, String error, Function<Map<String, Object>, T> parser,
                                   BasicFileAttributes attrs) {
        Loaded<T> kept = lastGood(file, cacheKey, parser);
        Loaded<T> loaded = kept != null ? kept : new Loaded<>(null, error, true);
        Rejection why = new Rejection(kept != null ? "rejected, previous version in force: "
                : "rejected, " + withoutGoodVersion + ": ", error);
        if (!why.equals(rejected.put(file, why))) {
            log.error("{} {} {}", what, file, why);
        }
        if (attrs != null) {
            cache.put(cacheKey, new Entry(attrs.lastModifiedTime(), attrs.size(), loaded));
        }
        return loaded;
    }

    /** The last good version for this key, else for any key, else null. */
    @SuppressWarnings("unchecked")
    private <T> Loaded<T> lastGood(Path file, String cacheKey, Function<Map<String, Object>, T> parser) {
        Entry previous = cache.get(cacheKey);
        return previous != null && !previous.loaded().unparseable() && previous.loaded().present()
                ? (Loaded<T>) previous.loaded() : earlierText(file, parser);
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
