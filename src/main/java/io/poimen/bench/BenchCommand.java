package io.poimen.bench;

import picocli.CommandLine.Command;

/** Benchmarks that print numbers (nothing here asserts a time), and the hub with fault hooks for load runs. */
@Command(name = "bench", description = "Retrieval and ingest benchmarks.",
        subcommands = {BenchBeirCommand.class, BenchIngestCommand.class, BenchLatencyCommand.class,
                BenchSessionCommand.class, BenchSyncCommand.class, BenchVaultCommand.class,
                BenchReplayCommand.class, BenchServeCommand.class})
public class BenchCommand implements Runnable {
    @Override
    public void run() {
        System.err.println("usage: bench beir --dataset DIR | bench ingest --dataset DIR"
                + " | bench session --dataset DIR | --vault DIR"
                + " | bench latency --dataset DIR [--notes N] | --vault DIR | bench vault --dataset DIR --notes N --to DIR"
                + " | bench sync --dataset DIR [--notes 1000,5000,10000]"
                + " | bench serve --embedding-failure-file FILE [--spring.property=value ...]");
    }
}
