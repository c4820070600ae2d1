package io.poimen.bench;

import picocli.CommandLine.Command;

/** Benchmarks that print numbers (nothing here asserts a time). */
@Command(name = "bench", description = "Retrieval and ingest benchmarks.",
        subcommands = {BenchBeirCommand.class, BenchIngestCommand.class, BenchLatencyCommand.class,
                BenchSessionCommand.class, BenchSyncCommand.class, BenchVaultCommand.class,
                BenchReplayCommand.class})
public class BenchCommand implements Runnable {
    @Override
    public void run() {
        System.err.println("usage: bench beir --dataset DIR | bench ingest --dataset DIR"
                + " | bench session --dataset DIR | --vault DIR"
                + " | bench latency --dataset DIR [--notes N] | --vault DIR | bench vault --dataset DIR --notes N --to DIR"
                + " | bench sync --dataset DIR [--notes 1000,5000,10000]");
    }
}
