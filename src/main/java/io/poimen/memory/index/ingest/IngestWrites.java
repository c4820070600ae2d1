package io.poimen.memory.index.ingest;

import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.vault.ParsedNote;
import java.util.List;
import org.apache.camel.Body;

/**
 * A batch's write to each store, one step of the {@code ingest-write} route each ({@link IngestRoutes}). A note
 * replaced by the batch loses its old entries first; the note rows (with the new content hashes, and with them the
 * change log that followers read) are written by {@link #notes} only after both indexes hold the batch.
 */
public class IngestWrites {
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final NoteStore notes;
    private final TfIdfIndex tfidf;

    public IngestWrites(VectorIndex vectors, LexicalIndex lexical, NoteStore notes, TfIdfIndex tfidf) {
        this.vectors = vectors;
        this.lexical = lexical;
        this.notes = notes;
        this.tfidf = tfidf;
    }

    public void vectors(@Body IngestBatch batch) {
        timed(batch, "vectors", () -> {
            vectors.deleteByPaths(replaced(batch));
            vectors.upsert(batch.chunks(), batch.vectors());
        });
    }

    public void lexical(@Body IngestBatch batch) {
        timed(batch, "lexical", () -> {
            lexical.deleteByPaths(replaced(batch));
            lexical.upsert(batch.chunks());
        });
    }

    public void notes(@Body IngestBatch batch) {
        timed(batch, "notes", () -> notes.saveAll(batch.parsed(), batch.changedAt()));
    }

    public void tfidf(@Body IngestBatch batch) {
        timed(batch, "tfidf", () -> batch.parsed().forEach(note ->
                tfidf.replacePath(note.path(), note.chunks(), batch.changedAt().get(note.path()))));
    }

    private static List<String> replaced(IngestBatch batch) {
        return batch.parsed().stream().map(ParsedNote::path).filter(batch.run().storedBefore::contains).toList();
    }

    private static void timed(IngestBatch batch, String step, Runnable work) {
        long t0 = System.nanoTime();
        work.run();
        batch.run().stepNanos.merge(step, System.nanoTime() - t0, Long::sum);
    }
}
