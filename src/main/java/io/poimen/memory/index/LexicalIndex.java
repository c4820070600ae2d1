package io.poimen.memory.index;

import io.poimen.memory.vault.Chunk;
import java.util.List;

/** BM25 full-text index of chunks (content^2, breadcrumb, source). OpenSearch in production, Lucene embedded. */
public interface LexicalIndex {
    void upsert(List<Chunk> chunks);

    /** Removes every chunk of the notes at {@code paths}, in one write. */
    void deleteByPaths(java.util.Collection<String> paths);

    default void deleteByPath(String path) {
        deleteByPaths(List.of(java.util.Objects.requireNonNull(path, "path")));
    }

    /** Up to {@code k} chunks in scope (and carrying every tag of {@code scope.tags()}), score = BM25. */
    List<Hit> search(String query, SearchScope scope, int k);

    long count();

    String name();
}
