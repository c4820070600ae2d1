package io.poimen.memory.index;

import io.poimen.memory.vault.Chunk;
import java.util.List;

/** BM25 full-text index of chunks (content^2, breadcrumb, source, heading, links). OpenSearch in production, Lucene embedded. */
public interface LexicalIndex {
    void upsert(List<Chunk> chunks);

    /** Removes every chunk of the notes at {@code paths}, in one write. */
    void deleteByPaths(java.util.Collection<String> paths);

    default void deleteByPath(String path) {
        deleteByPaths(List.of(java.util.Objects.requireNonNull(path, "path")));
    }

    /** Up to {@code k} chunks in scope (and carrying every tag of {@code scope.tags()}), score = BM25. */
    List<Hit> search(String query, SearchScope scope, int k);

    /**
     * The indexed chunks with these ids, for answering while the note store is down; unknown ids are skipped.
     *
     * @throws UnsupportedOperationException when this index does not keep chunk texts (the embedded Lucene
     *                                       index: its note store runs in the same process)
     */
    default List<Chunk> chunks(java.util.Collection<String> ids) {
        throw new UnsupportedOperationException(name() + " does not keep chunk texts");
    }

    /**
     * Makes every write so far visible to searches, at the start and the end of an ingest run (its writes do not
     * wait for that one by one). Nothing by default: a Lucene write is searchable once committed. OpenSearch
     * refreshes the index, and gives an index that a bulk load which died left without periodic refreshes its
     * interval back.
     */
    default void makeSearchable() {
    }

    /**
     * Before a bulk load (a full reindex, a first ingest): the index may stop making writes searchable on its own
     * until {@link #endBulkLoad()} (or the next run's {@link #makeSearchable()}). Nothing by default; OpenSearch
     * turns its periodic refresh off.
     */
    default void beginBulkLoad() {
    }

    /**
     * After a bulk load: undoes {@link #beginBulkLoad()} and leaves the index in the shape searches read fastest.
     * Nothing by default; OpenSearch restores its refresh interval and merges its segments.
     */
    default void endBulkLoad() {
    }

    long count();

    String name();
}
