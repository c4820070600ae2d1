package io.poimen.memory.retrieval.select;

/** How often a chunk was selected into a project's context; read by the TF-IDF branch's hit factor. */
public interface HitCounts {
    /** No counts: every chunk 0. */
    HitCounts NONE = (project, chunkId) -> 0;

    /** The count of {@code chunkId} in {@code project} (0 when never selected). From memory: no store is read. */
    long count(String project, String chunkId);
}
