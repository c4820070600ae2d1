package io.poimen.memory.index.ingest;

import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.VectorModel;
import io.poimen.memory.vault.Chunk;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * At start, before the first ingest: when the vector store was built by another embedding model than the
 * configured one (or holds vectors with no model recorded), every vector is deleted, the configured model
 * recorded, and every stored chunk embedded again, with progress in the log. Until then the store refuses
 * searches ({@link VectorModel#check}), so a query is never compared with vectors of another model; while it
 * runs, the store holds only vectors of the configured model.
 */
public class VectorModelCheck {
    private static final Logger log = LoggerFactory.getLogger(VectorModelCheck.class);
    static final int BATCH = 256;

    private final VectorIndex vectors;
    private final NoteStore notes;
    private final ChunkEmbedder embedder;

    public VectorModelCheck(VectorIndex vectors, NoteStore notes, ChunkEmbedder embedder) {
        this.vectors = vectors;
        this.notes = notes;
        this.embedder = embedder;
    }

    /** Runs before {@link IndexBootstrap#onReady} (which may ingest): both write the vector store. */
    @EventListener(ApplicationReadyEvent.class)
    @Order(Ordered.HIGHEST_PRECEDENCE)
    public void onReady() {
        reembedIfNeeded();
    }

    /** @return the number of chunks re-embedded (0 when the store already matched the configured model) */
    public int reembedIfNeeded() {
        VectorModel model = vectors.model();
        long stored = vectors.count();
        if (model.matches(stored)) {
            return 0;
        }
        List<Chunk> chunks = notes.allChunks();
        log.warn("{} holds {} vectors built by {}; this hub embeds with {}: deleting them and re-embedding {} chunks",
                vectors.name(), stored, model.recorded().orElse("an unrecorded model"), model.configured(),
                chunks.size());
        long t0 = System.nanoTime();
        vectors.clearForModel();
        int done = 0;
        int lastPercent = -1;
        for (int from = 0; from < chunks.size(); from += BATCH) {
            List<Chunk> batch = chunks.subList(from, Math.min(chunks.size(), from + BATCH));
            vectors.upsert(batch, embedder.embed(batch));
            done += batch.size();
            int percent = (int) (100L * done / chunks.size());
            if (percent / 10 != lastPercent / 10 || done == chunks.size()) {
                double seconds = (System.nanoTime() - t0) / 1e9;
                log.info("re-embedding with {}: {}/{} chunks ({} %), {} chunks/s", model.configured(), done,
                        chunks.size(), percent, Math.round(done / Math.max(seconds, 1e-3)));
                lastPercent = percent;
            }
        }
        log.info("re-embedded {} chunks with {} into {} in {} s", done, model.configured(), vectors.name(),
                (System.nanoTime() - t0) / 1_000_000_000);
        return done;
    }
}
