package io.poimen.memory.cluster;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.ProducerTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;

/**
 * At start: rebuild the in-process TF-IDF index and link graph from the note store (they are not persisted) and
 * follow other replicas' writes from there, then, when configured and this replica is the writer, ingest the
 * vault so the hub serves a current index.
 */
public class IndexBootstrap {
    private static final Logger log = LoggerFactory.getLogger(IndexBootstrap.class);
    private final NoteStore notes;
    private final TfIdfIndex tfidf;
    private final GraphService graph;
    private final ProducerTemplate producer;
    private final PoimenProperties.Vault settings;
    private final IndexFollower follower;
    private final Leadership leadership;

    public IndexBootstrap(NoteStore notes, TfIdfIndex tfidf, GraphService graph, ProducerTemplate producer,
                          PoimenProperties.Vault settings, IndexFollower follower, Leadership leadership) {
        this.follower = follower;
        this.leadership = leadership;
        this.notes = notes;
        this.tfidf = tfidf;
        this.graph = graph;
        this.producer = producer;
        this.settings = settings;
    }

    /** Loads what the store already holds; fast, so queries work right after start. */
    public void loadFromStore() {
        long t0 = System.nanoTime();
        // changes committed while loading are applied again on top by the follower: none is missed
        long mark = follower.mark();
        List<NoteStore.NoteRow> rows = notes.notes();
        Map<String, Instant> changedAt = new HashMap<>();
        rows.forEach(r -> changedAt.put(r.path(), r.updatedAt()));
        tfidf.addAll(notes.allChunks(), changedAt);
        graph.replace(LinkGraph.of(rows.stream().map(NoteStore.NoteRow::path).toList(), notes.links()));
        follower.startAfter(mark);
        log.info("loaded {} chunks and the link graph from the store in {} ms", tfidf.size(),
                (System.nanoTime() - t0) / 1_000_000);
    }

    @EventListener(ApplicationReadyEvent.class)
    public void onReady() {
        loadFromStore();
        // only the writer ingests; another replica leading now does it, and this one catches up if it leads later
        boolean writer = leadership.acquireNow();
        leadership.ready();
        if (!writer) {
            log.info("not the writer (leader: {}): following its index changes", leadership.leaderId());
        } else if (settings.ingestOnStartup()) {
            IngestReport report = producer.requestBody("direct:ingest", settings.path(), IngestReport.class);
            log.info("startup ingest of {}: {} notes, {} chunks written, {} problems", settings.path(),
                    report.notes(), report.chunks(), report.problems().size());
        }
    }
}
