package io.poimen.memory.index.ingest;

import io.poimen.memory.index.VectorIndex;
import org.apache.camel.Body;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bulk mode of the ingest route: when a run changes at least {@code poimen.vault.bulk-threshold} notes (a full
 * reindex, a first ingest), the vector index loads without its search structure and builds it once at the end.
 * Every run ends by building it when it is missing, so a bulk run that died is repaired by the next run.
 */
public class BulkReindex {
    private static final Logger log = LoggerFactory.getLogger(BulkReindex.class);
    private final VectorIndex vectors;
    private final int threshold;

    public BulkReindex(VectorIndex vectors, int threshold) {
        this.vectors = vectors;
        this.threshold = threshold;
    }

    /** After the plan. */
    public void begin(@Body IngestRun run) {
        if (threshold > 0 && run.changed().size() >= threshold) {
            log.info("bulk load of {} notes: the {} search index is built after loading", run.changed().size(),
                    vectors.name());
            vectors.beginBulkLoad();
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
    }
}
