package io.poimen.memory.index.ingest;

/** Receives progress while an ingest runs (the CLI draws a bar with it). */
@FunctionalInterface
public interface IngestProgress {
    IngestProgress NONE = (done, total, chunks) -> { };

    void update(int filesDone, int filesTotal, int chunksIndexed);
}
