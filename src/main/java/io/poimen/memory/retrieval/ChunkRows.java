package io.poimen.memory.retrieval;

import io.poimen.memory.ops.Availability;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.vault.Chunk;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
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

    /**
     * The rows of {@code ids}: those in {@code known} as they are, the others read.
     *
     * @param rows     {@code known} and the rows read now (chunk id → row); an id whose row is gone is absent
     * @param degraded null, or why the rows read now came from the lexical index instead of the note store
     */
    public record Read(Map<String, Chunk> rows, String degraded) {
    }

    public Read read(Collection<String> ids, Map<String, Chunk> known) {
        List<String> missing = ids.stream().filter(id -> !known.containsKey(id)).distinct().toList();
        Map<String, Chunk> out = new HashMap<>(known);
        if (missing.isEmpty()) {
            return new Read(out, null);
        }
        String[] degraded = {null};
        read(missing, reason -> degraded[0] = reason).forEach(c -> out.put(c.id(), c));
        return new Read(out, degraded[0]);
    }

    private List<Chunk> read(Collection<String> ids, Consumer<String> degrade) {
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
            degrade.accept("note store unavailable (" + store.lastFailure() + "): chunk texts from "
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
