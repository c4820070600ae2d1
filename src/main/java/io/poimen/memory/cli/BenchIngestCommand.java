package io.poimen.memory.cli;

import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.retrieval.eval.LatencyStats;
import io.poimen.memory.vault.Chunk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.camel.ProducerTemplate;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;

/**
 * {@code bench ingest --dataset DIR}: full-ingest throughput next to the embedding model's own throughput on
 * the same chunks, and the time to re-index a one-file change.
 */
@Command(name = "ingest", description = "Ingest throughput vs embedding-only throughput, one-file reindex time.")
public class BenchIngestCommand implements Callable<Integer> {
    @Mixin
    BenchContext.Options options;

    @Option(names = "--changes", defaultValue = "5", description = "one-file changes to time (default 5)")
    int changes;

    @Override
    public Integer call() throws Exception {
        try (BenchContext bench = BenchContext.open(options)) {
            ConfigurableApplicationContext ctx = bench.spring;
            Path vault = bench.vault;
            Map<String, String> ids = bench.idByPath;
            ProducerTemplate producer = bench.producer;
            IngestReport full = bench.ingest;
            System.out.printf("full ingest: %d notes, %d chunks in %.2f s = %.1f chunks/s%n", full.changed(),
                    full.chunks(), full.seconds(), full.chunksPerSecond());

            List<Chunk> chunks = ctx.getBean(NoteStore.class).allChunks();
            long t0 = System.nanoTime();
            ctx.getBean(ChunkEmbedder.class).embed(chunks);
            double embedSeconds = (System.nanoTime() - t0) / 1e9;
            double embedRate = chunks.size() / embedSeconds;
            System.out.printf("embedding only: %d chunks in %.2f s = %.1f chunks/s%n", chunks.size(), embedSeconds,
                    embedRate);
            System.out.printf("ingest / embedding-only = %.1f %%%n", 100 * full.chunksPerSecond() / embedRate);

            LatencyStats change = new LatencyStats();
            String path = ids.keySet().stream().sorted().findFirst().orElseThrow();
            for (int i = 0; i < changes; i++) {
                Files.writeString(vault.resolve(path), "\nEdit number " + i + " of this note.\n",
                        StandardOpenOption.APPEND);
                long c0 = System.nanoTime();
                IngestReport r = producer.requestBody("direct:ingest", vault, IngestReport.class);
                change.add((System.nanoTime() - c0) / 1e6);
                if (r.changed() != 1) {
                    System.err.println("warning: expected one changed note, got " + r.changed());
                }
            }
            System.out.printf("one-file change on a %d-chunk vault: reindex p50 %.0f ms, max %.0f ms (%d runs)%n",
                    chunks.size(), change.percentile(50), change.percentile(100), changes);
            return 0;
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
    }
}
