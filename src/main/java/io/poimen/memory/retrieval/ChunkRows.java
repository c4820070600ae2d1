package io.poimen.memory.retrieval;

import io.poimen.memory.ops.Availability;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.vault.Chunk;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * The chunk rows a query needs (texts, token counts, metadata), read from the note store. While the note store is
 * down (PostgreSQL in production), from the lexical index, which keeps the same fields, so the answer degrades
 * ({@code degraded: ["notes"]}) instead of failing; the store is tried again after a cool-down. When the lexical
 * index keeps no texts (embedded Lucene), the store's error stands and the API answers 503.
 */
public class ChunkRows {
    public static final String DEGRADED_KEY = "notes";
    private static final Logger log = LoggerFactory.getLogger(ChunkRows.class);

    private final NoteStore notes;
    private final LexicalIndex lexical;
    private final Availability store;

    public ChunkRows(NoteStore notes, LexicalIndex lexical, Availability store) {
        this.notes = notes;
        this.lexical = lexical;
        this.store = store;
    }

    public List<Chunk> read(Collection<String> ids, QueryContext ctx) {
        DataAccessException failure = null;
        if (store.available()) {
            try {
                List<Chunk> rows = notes.chunks(ids);
                store.succeeded();
                return rows;
            } catch (DataAccessException e) {
                failure = e;
                store.failed(e.getClass().getSimpleName() + ": " + e.getMostSpecificCause().getMessage());
                log.warn("note store failed, reading chunk texts from the {} index: {}", lexical.name(),
                        store.lastFailure());
            }
        }
        try {
            List<Chunk> rows = lexical.chunks(ids);
            ctx.degrade(DEGRADED_KEY, "note store unavailable (" + store.lastFailure() + "): chunk texts from "
                    + lexical.name());
            return rows;
        } catch (UnsupportedOperationException e) {
            if (failure != null) {
                throw failure;
            }
            return notes.chunks(ids); // nowhere else to read from: try the store even in its cool-down
        } catch (RuntimeException e) {
            DataAccessException cause = failure != null ? failure
                    : new DataAccessResourceFailureException("note store unavailable: " + store.lastFailure());
            cause.addSuppressed(e);
            throw cause;
        }
    }
}
