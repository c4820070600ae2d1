package io.poimen.memory.index.ingest;

import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.VectorIndex;
import org.apache.camel.Body;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bulk mode of the ingest route: when a run changes at least {@code poimen.vault.bulk-threshold} notes (a full
 * reindex, a first ingest), the vector index loads without its search structure and builds it once at the end.
 * Every run ends by building it when it is missing, so a bulk run that died is repaired by the next run. The lexical
 * index loads without its periodic refresh ({@link LexicalIndex#beginBulkLoad()}: OpenSearch's
 * {@code refresh_interval} is -1, so the node does not refresh and merge small segments while the model embeds), and
 * a bulk run ends by letting it settle ({@link LexicalIndex#endBulkLoad()}: the interval back, then OpenSearch merges
 * the segments the load wrote, which took its search time at 100,000 chunks from 6 to 4 ms p50, docs/operations.md).
 * A bulk run that died leaves the interval at -1 until the next run's {@link LexicalIndex#makeSearchable()} (at its
 * start, before its first write).
 */
public class BulkReindex {
    private static final Logger log = LoggerFactory.getLogger(BulkReindex.class);
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final int threshold;

    public BulkReindex(VectorIndex vectors, LexicalIndex lexical, int threshold) {
        this.vectors = vectors;
        this.lexical = lexical;
        this.threshold = threshold;
    }

    private boolean bulk(IngestRun run) {
        return threshold > 0 && run.changed().size() >= threshold;
    }

    /** After the plan. */
    public void begin(@Body IngestRun run) {
        if (bulk(run)) {
            log.info("bulk load of {} notes: the {} search index is built after loading", run.changed().size(),
                    vectors.name());
            vectors.beginBulkLoad();
            try {
                lexical.beginBulkLoad();
            } catch (RuntimeException e) { // only speed is lost: the index refreshes as usual during the load
                log.warn("the {} index keeps refreshing during the bulk load: {}", lexical.name(), e.getMessage());
            }
        }
    }

    /** After the last batch. */
    public void end(@Body IngestRun run) {
        long t0 = System.nanoTime();
        vectors.endBulkLoad();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        run.stepNanos.merge("search-index", ms * 1_000_000, Long::sum);
        if (ms > 1000) {
            log.info("built the {} search index in {} ms", vectors.name(), ms);
        }
        if (bulk(run)) {
            long t1 = System.nanoTime();
            try {
                lexical.endBulkLoad();
            } catch (RuntimeException e) { // only speed is lost: the loaded index answers as it is, and the run's
                // makeSearchable step restores a refresh interval left off
                log.warn("the {} index was not merged after the bulk load: {}", lexical.name(), e.getMessage());
            }
            run.stepNanos.merge("lexical-merge", System.nanoTime() - t1, Long::sum);
        }
    }
}
