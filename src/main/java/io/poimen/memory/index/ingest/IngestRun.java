package io.poimen.memory.index.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** State of one ingest run as it moves through the route's steps. */
public final class IngestRun {
    final Path root;
    final List<String> allFiles;
    final List<String> changed;
    final List<String> removed;
    /** Notes the store held when the run started (only this run writes until it ends). */
    final java.util.Set<String> storedBefore;
    final IngestProgress progress;
    /** For a run from a git diff: what the previous run left (files, aliases, links); null for a whole-vault scan. */
    final IngestCatalog base;
    final long startedNanos = System.nanoTime();
    final List<IngestProblem> problems = Collections.synchronizedList(new ArrayList<>());
    /** Batches handed to the {@code ingest-write} route and not written yet (0 or 1: one batch in flight). */
    private int writesPending;
    /** The first failed batch write; every later batch and the end of the run fail with it. */
    private RuntimeException writeFailure;
    int filesDone;
    int notesIndexed;
    int chunksIndexed;
    int notesRemoved;
    int links;
    /** Time spent in each ingest stage (parse, embed, write, write-wait, vectors, lexical, notes, tfidf), for the log. */
    final java.util.Map<String, Long> stepNanos = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());

    IngestRun(Path root, List<String> allFiles, List<String> changed, List<String> removed,
              java.util.Set<String> storedBefore, IngestProgress progress) {
        this(root, allFiles, changed, removed, storedBefore, progress, null);
    }

    IngestRun(Path root, List<String> allFiles, List<String> changed, List<String> removed,
              java.util.Set<String> storedBefore, IngestProgress progress, IngestCatalog base) {
        this.base = base;
        this.root = root;
        this.allFiles = allFiles;
        this.changed = changed;
        this.removed = removed;
        this.storedBefore = java.util.Set.copyOf(storedBefore);
        this.progress = progress;
    }

    /** When each changed note last changed ({@link NoteTimes}); worked out once per run, at its first batch. */
    private java.util.Map<String, java.time.Instant> noteTimes;

    synchronized java.util.Map<String, java.time.Instant> noteTimes() {
        if (noteTimes == null) {
            long t0 = System.nanoTime();
            noteTimes = NoteTimes.of(root, changed);
            stepNanos.put("note-times", System.nanoTime() - t0);
        }
        return noteTimes;
    }

    /** Changed notes cut into batches that are parsed, embedded and written together. */
    public List<List<String>> batches(int filesPerBatch) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < changed.size(); i += filesPerBatch) {
            out.add(changed.subList(i, Math.min(changed.size(), i + filesPerBatch)));
        }
        return out;
    }

    synchronized void batchDone(int notes, int chunks, int files) {
        notesIndexed += notes;
        chunksIndexed += chunks;
        filesDone += files;
        progress.update(filesDone, changed.size(), chunksIndexed);
    }

    synchronized void writeHandedOver() {
        writesPending++;
    }

    /** The {@code ingest-write} route is done with a batch: written, or failed with {@code failure}. */
    synchronized void writeEnded(RuntimeException failure) {
        writesPending--;
        if (failure != null && writeFailure == null) {
            writeFailure = failure;
        }
        notifyAll();
    }

    /** Waits until at most {@code inFlight} batches are still being written, then rethrows a write's failure. */
    synchronized void awaitWrites(int inFlight) {
        try {
            while (writesPending > inFlight) {
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the ingest's store writes", e);
        }
        throwIfWriteFailed();
    }

    synchronized void throwIfWriteFailed() {
        if (writeFailure != null) {
            throw writeFailure;
        }
    }

    java.util.Map<String, Long> stepMillis() {
        java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
        stepNanos.forEach((k, v) -> out.put(k, v / 1_000_000));
        return out;
    }

    public List<String> changed() {
        return changed;
    }

    public List<String> removed() {
        return removed;
    }

    public List<IngestProblem> problems() {
        return problems;
    }
}
