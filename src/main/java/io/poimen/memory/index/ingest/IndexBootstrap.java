package io.poimen.memory.index.ingest;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import org.apache.camel.ProducerTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;

/**
 * At start: rebuild the in-process TF-IDF index and link graph from the note store (they are not persisted),
 * then, when configured, ingest the vault so the hub serves a current index.
 */
public class IndexBootstrap {
    private static final Logger log = LoggerFactory.getLogger(IndexBootstrap.class);
    private final NoteStore notes;
    private final TfIdfIndex tfidf;
    private final GraphService graph;
    private final ProducerTemplate producer;
    private final PoimenProperties.Vault settings;

    public IndexBootstrap(NoteStore notes, TfIdfIndex tfidf, GraphService graph, ProducerTemplate producer,
                          PoimenProperties.Vault settings) {
        this.notes = notes;
        this.tfidf = tfidf;
        this.graph = graph;
        this.producer = producer;
        this.settings = settings;
    }

    /** Loads what the store already holds; fast, so queries work right after start. */
    public void loadFromStore() {
        long t0 = System.nanoTime();
        tfidf.addAll(notes.allChunks());
        graph.replace(LinkGraph.of(notes.notes().stream().map(NoteStore.NoteRow::path).toList(), notes.links()));
        log.info("loaded {} chunks and the link graph from the store in {} ms", tfidf.size(),
                (System.nanoTime() - t0) / 1_000_000);
    }

    @EventListener(ApplicationReadyEvent.class)
    public void onReady() {
        loadFromStore();
        if (settings.ingestOnStartup()) {
            IngestReport report = producer.requestBody("direct:ingest", settings.path(), IngestReport.class);
            log.info("startup ingest of {}: {} notes, {} chunks written, {} problems", settings.path(),
                    report.notes(), report.chunks(), report.problems().size());
        }
    }
}
