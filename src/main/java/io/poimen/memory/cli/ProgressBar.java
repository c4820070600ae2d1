package io.poimen.memory.cli;

import io.poimen.memory.index.ingest.IngestProgress;
import java.io.PrintStream;

/** A one-line text progress bar on stderr, redrawn in place. */
final class ProgressBar implements IngestProgress {
    private static final int WIDTH = 30;
    private final PrintStream out;
    private final long started = System.nanoTime();

    ProgressBar(PrintStream out) {
        this.out = out;
    }

    @Override
    public void update(int filesDone, int filesTotal, int chunks) {
        int filled = filesTotal == 0 ? WIDTH : (int) ((long) WIDTH * filesDone / filesTotal);
        double seconds = (System.nanoTime() - started) / 1e9;
        out.printf("\r[%s%s] %d/%d notes, %d chunks, %.0f chunks/s ", "#".repeat(filled), ".".repeat(WIDTH - filled),
                filesDone, filesTotal, chunks, seconds > 0 ? chunks / seconds : 0);
        out.flush();
    }

    void finish() {
        out.println();
    }
}
