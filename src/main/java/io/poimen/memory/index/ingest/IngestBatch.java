package io.poimen.memory.index.ingest;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ParsedNote;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One batch of changed notes on its way through the ingest stages ({@link IngestRoutes}): parsed, then embedded,
 * then written to every store.
 *
 * @param run      the ingest run it belongs to
 * @param files    the batch's changed files (a rejected file is among them, not among {@code parsed})
 * @param parsed   the notes that parsed
 * @param chunks   their chunks, in order
 * @param changedAt when each parsed note last changed (its rows' and TF-IDF entries' time)
 * @param vectors  one vector per chunk; null until the embed stage
 */
public record IngestBatch(IngestRun run, List<String> files, List<ParsedNote> parsed, List<Chunk> chunks,
                          Map<String, Instant> changedAt, List<float[]> vectors) {

    IngestBatch embedded(List<float[]> vectors) {
        return new IngestBatch(run, files, parsed, chunks, changedAt, vectors);
    }
}
