package io.poimen.memory.retrieval.branch;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A retrieval branch, named by its route ({@code setProperty poimenBranch} in routes/query.camel.yaml). The
 * fusion takes the branches the query route wires; {@link #key()} is the name used in JSON and policies.
 * Instances are canonical per name, so {@code ==} and {@code equals} agree. The three constants are the branches
 * the hub ships with: the router chooses among them, and the calibrated fusion treats semantic apart.
 */
public final class Branch implements Comparable<Branch> {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,63}");
    private static final Map<String, Branch> BY_NAME = new ConcurrentHashMap<>();

    /** In-process, project-scoped TF-IDF (global, project and chunk-metadata scopes). */
    public static final Branch TFIDF = ofKey("tfidf");
    /** Dense vectors, cosine similarity (pgvector or Lucene HNSW). */
    public static final Branch SEMANTIC = ofKey("semantic");
    /** BM25 full text (OpenSearch or embedded Lucene). */
    public static final Branch LEXICAL = ofKey("lexical");

    private final String key;

    private Branch(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    /**
     * The branch named {@code key} (trimmed, case-insensitive): a lower-case letter, then up to 63 letters,
     * digits, '-' or '_'.
     *
     * @throws IllegalArgumentException for any other name, naming it
     */
    public static Branch ofKey(String key) {
        String k = key == null ? "" : key.trim().toLowerCase(Locale.ROOT);
        if (!NAME.matcher(k).matches()) {
            throw new IllegalArgumentException("bad branch name '" + key
                    + "': expected a lower-case letter, then letters, digits, '-' or '_' (at most 64)");
        }
        return BY_NAME.computeIfAbsent(k, Branch::new);
    }

    @Override
    public int compareTo(Branch o) {
        return key.compareTo(o.key);
    }

    @Override
    public String toString() {
        return key;
    }
}
