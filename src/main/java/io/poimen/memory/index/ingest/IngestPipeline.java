package io.poimen.memory.index.ingest;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.LinkResolver;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.NoteRejectedException;
import io.poimen.memory.vault.ParsedNote;
import io.poimen.memory.vault.PolicyFileNames;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.vault.VaultScanner;
import io.poimen.memory.vault.VaultSnapshot;
import io.poimen.memory.vault.WikiLink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.camel.Body;
import org.apache.camel.CamelExchangeException;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of the ingest route ({@code routes/ingest.camel.yaml}): plan what changed, index changed notes in
 * batches (the stages of the code-owned {@link IngestRoutes}), drop deleted notes, re-resolve links and rebuild
 * the graph, report.
 *
 * <p>Incremental by content hash: a note whose bytes did not change is neither parsed nor embedded again.
 * A note is written to the vector and lexical indexes before its row (with the new hash) is saved, so a run
 * that dies half-way is repeated by the next one instead of leaving a stale hash behind.
 */
public class IngestPipeline {
    public static final String RUN = "ingestRun";
    public static final String PROGRESS = "poimenIngestProgress";
    /** Header of a batch in {@code ingest-write}: when its writes started (System.nanoTime). */
    static final String WRITE_STARTED = "poimenIngestWriteStarted";
    private static final Logger log = LoggerFactory.getLogger(IngestPipeline.class);

    private final PoimenProperties.Vault settings;
    private final VaultScanner scanner;
    private final NoteParser parser;
    private final ChunkEmbedder embedder;
    private final NoteStore notes;
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final TfIdfIndex tfidf;
    private final GraphService graph;
    private final RetrievalMetrics metrics;
    /** Left by the last run that reached relink; a run from a git diff starts from it. */
    private volatile IngestCatalog catalog;

    public IngestPipeline(PoimenProperties.Vault settings, VaultScanner scanner, NoteParser parser,
                          ChunkEmbedder embedder, NoteStore notes, VectorIndex vectors, LexicalIndex lexical,
                          TfIdfIndex tfidf, GraphService graph, RetrievalMetrics metrics) {
        this.settings = settings;
        this.scanner = scanner;
        this.parser = parser;
        this.embedder = embedder;
        this.notes = notes;
        this.vectors = vectors;
        this.lexical = lexical;
        this.tfidf = tfidf;
        this.graph = graph;
        this.metrics = metrics;
    }

    /** Step 1: scan the vault and compare content hashes with the store. Body: vault root (null = configured). */
    public IngestRun plan(@Body Path root, @Header(PROGRESS) IngestProgress progress) throws IOException {
        long t0 = System.nanoTime();
        Path vault = (root != null ? root : settings.path()).toAbsolutePath().normalize();
        if (!Files.isDirectory(vault)) {
            throw new IllegalArgumentException("vault folder not found: " + vault);
        }
        VaultSnapshot snapshot = scanner.scan(vault);
        Map<String, String> stored = notes.hashes();
        List<String> changed = new ArrayList<>();
        List<IngestProblem> early = new ArrayList<>();
        snapshot.skipped().forEach((path, reason) -> early.add(new IngestProblem(path, "skipped: " + reason)));
        for (String path : snapshot.markdown()) {
            Path file = vault.resolve(path);
            try {
                if (overLimit(path, file, early)) {
                    continue;
                }
                if (!Objects.equals(stored.get(path), NoteParser.contentHash(Files.readAllBytes(file)))) {
                    changed.add(path);
                }
            } catch (IOException e) {
                // one unreadable note (permissions, gone since the scan) never stops the others
                early.add(new IngestProblem(path, "not readable (" + e.getClass().getSimpleName()
                        + "); previous version kept"));
            }
        }
        List<String> removed = stored.keySet().stream()
                .filter(p -> !snapshot.markdown().contains(p)).sorted().toList();
        IngestRun run = new IngestRun(vault, snapshot.files(), changed, removed, stored.keySet(),
                progress != null ? progress : IngestProgress.NONE);
        run.problems.addAll(early);
        run.stepNanos.put("plan", System.nanoTime() - t0);
        log.info("ingest plan for {} (whole-vault scan): {} files, {} notes changed, {} removed", vault, snapshot.files().size(),
                changed.size(), removed.size());
        return run;
    }

    /**
     * Step 1 after a git pull: only the paths of the pull's diff are read and compared with their stored rows.
     * Without the file list of an earlier run over the same folder (the first ingest since start) this is the
     * whole-vault scan of {@link #plan}.
     */
    public IngestRun planChanges(@Body VaultChanges diff, @Header(PROGRESS) IngestProgress progress)
            throws IOException {
        long t0 = System.nanoTime();
        Path vault = diff.root().toAbsolutePath().normalize();
        IngestCatalog base = catalog;
        if (base == null || !base.root().equals(vault)) {
            log.info("ingest of {}..{}: no file list from an earlier ingest of {} in this process; whole-vault scan",
                    diff.from(), diff.to(), vault);
            return plan(vault, progress);
        }
        Set<String> files = new TreeSet<>(base.files());
        diff.deleted().forEach(files::remove);
        List<String> changed = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        Set<String> stored = new HashSet<>();
        List<IngestProblem> early = new ArrayList<>();
        for (String path : diff.deleted()) {
            if (isNote(path) && !diff.upserted().contains(path) && notes.note(path).isPresent()) {
                removed.add(path);
            }
        }
        for (String path : diff.upserted()) {
            Path file = vault.resolve(path);
            if (hidden(path)) {
                continue; // the scanner never lists these either
            }
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                files.remove(path);
                if (Files.isSymbolicLink(file)) {
                    early.add(new IngestProblem(path, "skipped: symbolic link"));
                }
                if (isNote(path) && notes.note(path).isPresent()) {
                    removed.add(path);
                }
                continue;
            }
            if (PolicyFileNames.nearMiss(Path.of(path).getFileName().toString())) {
                files.remove(path);
                early.add(new IngestProblem(path, "skipped: " + VaultScanner.NEAR_MISS));
                if (notes.note(path).isPresent()) {
                    removed.add(path); // indexed before its name was known as a near-miss
                }
                continue; // as the scanner: never a note or a file links resolve to
            }
            files.add(path);
            if (!isNote(path)) {
                continue;
            }
            try {
                if (overLimit(path, file, early)) {
                    continue;
                }
                String hash = notes.note(path).map(NoteStore.NoteRow::contentHash).orElse(null);
                if (hash != null) {
                    stored.add(path);
                }
                if (!Objects.equals(hash, NoteParser.contentHash(Files.readAllBytes(file)))) {
                    changed.add(path);
                }
            } catch (IOException e) {
                early.add(new IngestProblem(path, "not readable (" + e.getClass().getSimpleName()
                        + "); previous version kept"));
            }
        }
        IngestRun run = new IngestRun(vault, List.copyOf(files), changed, removed, stored,
                progress != null ? progress : IngestProgress.NONE, base);
        run.problems.addAll(early);
        run.stepNanos.put("plan", System.nanoTime() - t0);
        log.info("ingest plan for {}..{}: {} paths in the diff, {} notes changed, {} removed", diff.from(),
                diff.to(), diff.upserted().size() + diff.deleted().size(), changed.size(), removed.size());
        return run;
    }

    /** A file over {@code max-file-bytes} is reported and keeps its previously indexed version. */
    private boolean overLimit(String path, Path file, List<IngestProblem> problems) throws IOException {
        long size = Files.size(file);
        if (size <= settings.maxFileBytes()) {
            return false;
        }
        problems.add(new IngestProblem(path, "file is " + size + " bytes, over the limit of "
                + settings.maxFileBytes() + "; previous version kept"));
        return true;
    }

    private static boolean isNote(String path) {
        return VaultPaths.isNote(path);
    }

    private static boolean hidden(String path) {
        return ("/" + path).contains("/.");
    }

    public List<List<String>> batches(@Body IngestRun run) {
        return run.batches(settings.filesPerBatch());
    }

    /**
     * Stage "parse" of a batch ({@link IngestRoutes}): a rejected file keeps its old version and is reported. Fails
     * at once with an earlier batch's write failure, so no batch is embedded after a store failed.
     */
    public IngestBatch parse(@Body List<String> paths, @ExchangeProperty(RUN) IngestRun run) {
        run.throwIfWriteFailed();
        long t0 = System.nanoTime();
        List<ParsedNote> parsed = new ArrayList<>();
        for (String path : paths) {
            try {
                ParsedNote note = NoteChunkCap.capped(parser.parse(path, Files.readAllBytes(run.root.resolve(path))),
                        settings.maxChunksPerNote(), run.problems);
                if (note.frontMatter().error() != null) {
                    run.problems.add(new IngestProblem(path, "front matter ignored: " + note.frontMatter().error()));
                }
                parsed.add(note);
            } catch (NoteRejectedException | IOException e) {
                run.problems.add(new IngestProblem(path, e.getMessage() + (run.storedBefore.contains(path)
                        ? "; previous version kept" : "")));
            }
        }
        Map<String, Instant> changedAt = new HashMap<>();
        for (ParsedNote note : parsed) {
            Instant t = run.noteTimes().get(note.path());
            changedAt.put(note.path(), t != null ? t : NoteTimes.modified(run.root.resolve(note.path())));
        }
        List<Chunk> chunks = parsed.stream().flatMap(n -> n.chunks().stream()).toList();
        run.stepNanos.merge("parse", System.nanoTime() - t0, Long::sum);
        return new IngestBatch(run, List.copyOf(paths), parsed, chunks, changedAt, null);
    }

    /** Stage "embed": every chunk of the batch, in one call of the embedding model. */
    public IngestBatch embed(@Body IngestBatch batch) {
        long t0 = System.nanoTime();
        List<float[]> vectors = embedder.embed(batch.chunks());
        batch.run().stepNanos.merge("embed", System.nanoTime() - t0, Long::sum);
        return batch.embedded(vectors);
    }

    /**
     * Before a batch goes to {@code seda:ingest-write}: waits for the previous batch's writes (one batch in flight,
     * written in batch order, while the next one is parsed and embedded) and fails with their failure.
     */
    public void handOver(@Body IngestBatch batch) {
        awaitWrites(batch.run(), 0);
        batch.run().writeHandedOver();
    }

    /** After the last batch, and after a failed one: the route goes on only when no write is left running. */
    public void awaitWrites(@ExchangeProperty(RUN) IngestRun run) {
        awaitWrites(run, 0);
    }

    private static void awaitWrites(IngestRun run, int inFlight) {
        long t0 = System.nanoTime();
        try {
            run.awaitWrites(inFlight);
        } finally {
            run.stepNanos.merge("write-wait", System.nanoTime() - t0, Long::sum);
        }
    }

    /** The end of {@code ingest-write} for a batch that every store holds now. */
    public void written(@Body IngestBatch batch, @Header(WRITE_STARTED) long started) {
        IngestRun run = batch.run();
        run.stepNanos.merge("write", System.nanoTime() - started, Long::sum);
        run.batchDone(batch.parsed().size(), batch.chunks().size(), batch.files().size());
        run.writeEnded(null);
    }

    /** The end of {@code ingest-write} for a batch a store failed: the run fails with the store's own exception. */
    public void writeFailed(@Body IngestBatch batch, @ExchangeProperty(Exchange.EXCEPTION_CAUGHT) Throwable caught) {
        Throwable cause = caught;
        while (cause instanceof CamelExchangeException && cause.getCause() != null) {
            cause = cause.getCause(); // the multicast's wrapper around the failed store's exception
        }
        batch.run().writeEnded(cause instanceof RuntimeException r ? r
                : new IllegalStateException("ingest write failed: " + cause.getMessage(), cause));
    }

    /** Step 3: a note gone from the vault disappears from every index. */
    public void removeDeleted(@Body IngestRun run) {
        vectors.deleteByPaths(run.removed);
        lexical.deleteByPaths(run.removed);
        for (String path : run.removed) {
            tfidf.removePath(path);
            notes.delete(path);
            run.notesRemoved++;
        }
    }

    /**
     * After the run's last lexical write (its batches' and {@link #removeDeleted}'s): they become searchable now,
     * together, since no write waits for that on its own ({@link LexicalIndex#makeSearchable()}). A failure here
     * loses nothing that was written, so the run still reports: OpenSearch shows the writes at its next periodic
     * refresh, and the next run refreshes again. A run that fails before this step is shown the same way, and by
     * the next run, which takes this step before its first write too: OpenSearch deletes a changed note's old
     * chunks by query, which finds only chunks a search sees (also those a failed bulk run wrote while the periodic
     * refresh was off).
     */
    public void makeSearchable(@Body IngestRun run) {
        long t0 = System.nanoTime();
        try {
            lexical.makeSearchable();
        } catch (RuntimeException e) {
            log.warn("the {} index did not refresh after the ingest; its writes show at its next refresh: {}",
                    lexical.name(), e.getMessage());
        } finally {
            run.stepNanos.merge("lexical-refresh", System.nanoTime() - t0, Long::sum);
        }
    }

    /**
     * Step 4: resolve the stored links against the current files (a new file can resolve old links) and rebuild
     * the graph. After a whole-vault scan every link is read from the store; after a git diff only the links of the
     * changed notes are, and the others are re-resolved in memory only when files came or went or aliases changed.
     */
    public void relink(@Body IngestRun run) {
        long t0 = System.nanoTime();
        Map<String, List<String>> aliases = new HashMap<>();
        Map<String, List<WikiLink>> links = new LinkedHashMap<>();
        boolean resolveAll = true;
        List<String> touched = new ArrayList<>(run.changed);
        touched.addAll(run.removed);
        if (run.base == null) {
            notes.notes().forEach(row -> aliases.put(row.path(), row.aliases()));
            for (WikiLink link : notes.links()) {
                links.computeIfAbsent(link.sourcePath(), k -> new ArrayList<>()).add(link);
            }
        } else {
            aliases.putAll(run.base.aliases());
            links.putAll(run.base.links());
            for (String path : touched) {
                aliases.remove(path);
                links.remove(path);
                notes.note(path).ifPresent(row -> {
                    aliases.put(path, row.aliases());
                    links.put(path, notes.linksFrom(path));
                });
            }
            resolveAll = !run.base.files().equals(new HashSet<>(run.allFiles))
                    || touched.stream().anyMatch(p -> !Objects.equals(aliases.get(p), run.base.aliases().get(p)));
        }
        LinkResolver resolver = LinkResolver.of(run.allFiles, aliases);
        Set<String> toResolve = resolveAll ? links.keySet() : new HashSet<>(touched);
        List<WikiLink> updates = new ArrayList<>();
        List<WikiLink> all = new ArrayList<>();
        for (Map.Entry<String, List<WikiLink>> e : links.entrySet()) {
            if (!toResolve.contains(e.getKey())) {
                all.addAll(e.getValue());
                continue;
            }
            List<WikiLink> resolved = new ArrayList<>(e.getValue().size());
            for (WikiLink link : e.getValue()) {
                WikiLink r = resolver.resolve(link);
                resolved.add(r);
                if (!Objects.equals(r.resolvedPath(), link.resolvedPath()) || r.type() != link.type()) {
                    updates.add(r);
                }
            }
            e.setValue(List.copyOf(resolved));
            all.addAll(resolved);
        }
        if (!updates.isEmpty()) {
            notes.updateResolutions(updates);
        }
        graph.replace(LinkGraph.of(aliases.keySet(), all));
        catalog = new IngestCatalog(run.root, Set.copyOf(run.allFiles),
                Collections.unmodifiableMap(aliases), Collections.unmodifiableMap(links));
        run.links = all.size();
        run.stepNanos.put("relink", System.nanoTime() - t0);
    }

    /** Step 5: the summary the CLI prints and the admin endpoint returns. */
    public IngestReport report(@Body IngestRun run) {
        LinkGraph g = graph.current();
        List<String> unresolved = g.unresolvedLinks().stream()
                .map(l -> l.sourcePath() + " -> " + l.written()).toList();
        double seconds = (System.nanoTime() - run.startedNanos) / 1e9;
        // the graph that relink just built holds every stored note: no second read of the store for a count
        IngestReport report = new IngestReport(run.allFiles.size(), g.notes().size(), run.notesIndexed,
                run.notesRemoved, run.chunksIndexed, run.links, unresolved, List.copyOf(run.problems), seconds,
                run.stepMillis());
        log.info("ingest done: {} notes changed, {} removed, {} chunks in {} s; {} problems, {} unresolved links;"
                        + " time by step (ms): {}", report.changed(), report.removed(), report.chunks(),
                String.format("%.2f", seconds), report.problems().size(), unresolved.size(), report.stepMillis());
        metrics.ingested(report.changed(), report.chunks(), report.seconds(), report.chunksPerSecond());
        return report;
    }
}
