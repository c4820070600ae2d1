package io.poimen.memory.index.ingest;

import org.apache.camel.builder.RouteBuilder;

/**
 * Ingest's internal stages, owned by the code (docs/architecture.md, "Who owns a flow"): the operator-owned
 * {@code vault-ingest} route ({@code routes/ingest.camel.yaml}) hands a run's changed notes to
 * {@code direct:ingest-changed}, which cuts them into batches of {@code poimen.vault.files-per-batch} files,
 * parses and embeds each batch and hands it to {@code seda:ingest-write}. That route's one consumer writes a batch
 * to the stores while the next batch is embedded: vectors and BM25 side by side, then the note rows (with the
 * content hashes and the followers' change log) and TF-IDF side by side, so a note's row is saved only once both
 * indexes hold it and a run that dies half-way is redone by the next one. One batch is in flight at a time, in
 * batch order; the first failed write fails the run, and {@code ingest-changed} returns only when no write is left
 * running. None of these is a {@code master:} route: a writer that loses its lease mid-ingest finishes the batch
 * writes it started (the new writer redoes the request, ingest is incremental).
 */
public class IngestRoutes extends RouteBuilder {
    public static final String CHANGED = "direct:ingest-changed";
    static final String WRITE = "seda:ingest-write";

    private final IngestPipeline pipeline;
    private final IngestWrites writes;

    public IngestRoutes(IngestPipeline pipeline, IngestWrites writes) {
        this.pipeline = pipeline;
        this.writes = writes;
    }

    @Override
    public void configure() {
        // no error handler of their own: a failure goes back to the caller's, as in vault-ingest
        from(CHANGED).routeId("ingest-changed")
                .errorHandler(noErrorHandler())
                .doTry()
                    .split(method(pipeline, "batches"))
                        .bean(pipeline, "parse").id("ingest-parse")
                        .bean(pipeline, "embed").id("ingest-embed")
                        .bean(pipeline, "handOver").id("ingest-hand-over")
                        .to(WRITE + "?waitForTaskToComplete=Never").id("ingest-to-write")
                    .endDoTry()
                .doFinally()
                    .bean(pipeline, "awaitWrites").id("ingest-await-writes")
                .end();

        from(WRITE + "?concurrentConsumers=1").routeId("ingest-write")
                .errorHandler(noErrorHandler())
                .process(e -> e.getMessage().setHeader(IngestPipeline.WRITE_STARTED, System.nanoTime()))
                .doTry()
                    // each multicast runs both writes to the end before it goes on, even when one fails
                    .multicast().parallelProcessing()
                        .bean(writes, "vectors").id("write-vectors")
                        .bean(writes, "lexical").id("write-lexical")
                    .end()
                    .multicast().parallelProcessing()
                        .bean(writes, "notes").id("write-notes")
                        .bean(writes, "tfidf").id("write-tfidf")
                    .endDoTry()
                    .bean(pipeline, "written").id("write-done")
                .doCatch(Exception.class)
                    .bean(pipeline, "writeFailed").id("write-failed")
                .end();
    }
}
