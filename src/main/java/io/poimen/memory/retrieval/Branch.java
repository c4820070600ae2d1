package io.poimen.memory.retrieval;

import java.util.Locale;

/** The three retrieval branches a query fans out to. {@link #key()} is the name used in JSON and policies. */
public enum Branch {
    /** In-process, project-scoped TF-IDF (global, project and chunk-metadata scopes). */
    TFIDF("tfidf"),
    /** Dense vectors, cosine similarity (pgvector or Lucene HNSW). */
    SEMANTIC("semantic"),
    /** BM25 full text (OpenSearch or embedded Lucene). */
    LEXICAL("lexical");

    private final String key;

    Branch(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    /** The branch whose {@link #key()} is {@code key} (case-insensitive). */
    public static Branch ofKey(String key) {
        String k = key == null ? "" : key.trim().toLowerCase(Locale.ROOT);
        for (Branch b : values()) {
            if (b.key.equals(k)) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown branch '" + key + "', expected tfidf, semantic or lexical");
    }
}
