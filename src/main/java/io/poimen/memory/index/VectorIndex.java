package io.poimen.memory.index;

import io.poimen.memory.vault.Chunk;
import java.util.List;

/** Dense vectors of chunks, searched by cosine similarity. pgvector in production, Lucene HNSW embedded. */
public interface VectorIndex {
    void upsert(List<Chunk> chunks, List<float[]> vectors);

    /** Removes every chunk of the notes at {@code paths}, in one write. */
    void deleteByPaths(java.util.Collection<String> paths);

    default void deleteByPath(String path) {
        deleteByPaths(List.of(java.util.Objects.requireNonNull(path, "path")));
    }

    /** Up to {@code k} chunks in scope, score = cosine similarity in [-1, 1]. */
    List<Hit> search(float[] query, SearchScope scope, int k);

    long count();

    /** The configured embedding model and the one recorded with the stored vectors. */
    VectorModel model();

    /**
     * Deletes every vector and records the configured model, as incomplete: the start of a re-embedding. Until
     * it is called, a store whose vectors come from another model refuses {@link #search} and {@link #upsert}
     * ({@link VectorModelException}); after it, the store takes writes and refuses searches until
     * {@link #markModelComplete()}.
     */
    void clearForModel();

    /** The end of a re-embedding: every chunk has its vector of the configured model, searches resume. */
    void markModelComplete();

    /**
     * Before loading many vectors at once: an index may stop maintaining its search structure meanwhile
     * (pgvector drops its HNSW index). Searches stay exact and correct, only slower, until
     * {@link #endBulkLoad()}.
     */
    default void beginBulkLoad() {
    }

    /** After a bulk load (and before any other load): builds the search structure if it is missing. */
    default void endBulkLoad() {
    }

    /** Short name for logs and health: "pgvector", "lucene-hnsw". */
    String name();
}
