package io.poimen.memory.cluster;

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
 * Keeps the vector store to the configured embedding model. When the store was built by another model (or a
 * re-embedding was cut short), every vector is deleted, the configured model recorded as incomplete, every
 * stored chunk embedded again with progress in the log, and the store marked complete. Meanwhile the store
 * refuses searches ({@link VectorModel#checkSearch}): the semantic branch is degraded with that reason, and a
 * query is never compared with vectors of another model.
 *
 * <p>It runs first in every ingest (a route step, under the ingest route's one-at-a-time consumer, so no ingest
 * writes the store meanwhile) and, on the writer, once in the background at start-up so that a hub that does
 * not ingest at start re-embeds too. A replica that is not the writer never re-embeds the shared store.
 */
public class VectorModelCheck {
    private static final Logger log = LoggerFactory.getLogger(VectorModelCheck.class);
    static final int BATCH = 256;

    private final VectorIndex vectors;
    private final NoteStore notes;
    private final ChunkEmbedder embedder;
    private final Leadership leadership;
    private final int bulkThreshold;

    /** @param bulkThreshold re-embeddings of at least this many chunks load without the search structure (0: never) */
    public VectorModelCheck(VectorIndex vectors, NoteStore notes, ChunkEmbedder embedder, Leadership leadership,
                            int bulkThreshold) {
        this.vectors = vectors;
        this.notes = notes;
        this.embedder = embedder;
        this.leadership = leadership;
        this.bulkThreshold = bulkThreshold;
    }

    /** Before {@link IndexBootstrap#onReady}, which loads TF-IDF and may ingest: the check runs beside them. */
    @EventListener(ApplicationReadyEvent.class)
    @Order(Ordered.HIGHEST_PRECEDENCE)
    public void onReady() {
        VectorModel model = vectors.model();
        long stored = vectors.count();
        if (model.searchable(stored) && (model.recorded().isPresent() || stored == 0)) {
            return;
        }
        Thread check = new Thread(() -> {
            try {
                if (leadership.acquireNow()) {
                    reembedIfNeeded();
                } else if (!vectors.model().searchable(vectors.count())) {
                    log.info("{} vectors are not of {} yet: the writer ({}) re-embeds them; semantic search "
                            + "is degraded until then", vectors.name(), model.configured(), leadership.leaderId());
                }
            } catch (RuntimeException e) {
                log.error("re-embedding {} with {} failed: {} (the next ingest tries again)", vectors.name(),
                        model.configured(), e.toString());
            }
        }, "vector-model-check");
        check.setDaemon(true);
        check.start();
    }

    /** Ingest route step, before the plan. */
    public void beforeIngest() {
        reembedIfNeeded();
    }

    /** @return the number of chunks re-embedded (0 when the store already held vectors of the configured model) */
    public synchronized int reembedIfNeeded() {
        VectorModel model = vectors.model();
        long stored = vectors.count();
        if (model.searchable(stored)) {
            if (model.recorded().isEmpty() && stored > 0) {
                vectors.markModelComplete(); // written before stores recorded their model: record it now
            }
            return 0;
        }
        List<Chunk> chunks = notes.allChunks();
        if (model.matches(stored)) {
            log.warn("a re-embedding of {} with {} was cut short: starting it again for {} chunks", vectors.name(),
                    model.configured(), chunks.size());
        } else {
            log.warn("{} holds {} vectors built by {}; this hub embeds with {}: deleting them and re-embedding {}"
                            + " chunks (semantic search is degraded until that is done)", vectors.name(), stored,
                    model.builtBy(stored).orElseThrow(), model.configured(), chunks.size());
        }
        long t0 = System.nanoTime();
        vectors.clearForModel();
        boolean bulk = bulkThreshold > 0 && chunks.size() >= bulkThreshold;
        if (bulk) {
            vectors.beginBulkLoad();
        }
        int done = 0;
        int lastTenth = -1;
        for (int from = 0; from < chunks.size(); from += BATCH) {
            List<Chunk> batch = chunks.subList(from, Math.min(chunks.size(), from + BATCH));
            vectors.upsert(batch, embedder.embed(batch));
            done += batch.size();
            int tenth = (int) (10L * done / chunks.size());
            if (tenth != lastTenth) {
                double seconds = (System.nanoTime() - t0) / 1e9;
                log.info("re-embedding {} with {}: {}/{} chunks ({} %), {} chunks/s", vectors.name(),
                        model.configured(), done, chunks.size(), 100L * done / chunks.size(),
                        Math.round(done / Math.max(seconds, 1e-3)));
                lastTenth = tenth;
            }
        }
        if (bulk) {
            vectors.endBulkLoad();
        }
        vectors.markModelComplete();
        log.info("re-embedded {} chunks with {} into {} in {} s: semantic search resumes", done, model.configured(),
                vectors.name(), Math.round((System.nanoTime() - t0) / 1e9));
        return done;
    }
}
