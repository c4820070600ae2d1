package io.poimen.memory.cli;

import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.retrieval.eval.LatencyStats;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.NoteRejectedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.camel.ProducerTemplate;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench ingest --dataset DIR}: full-ingest throughput next to the embedding model's own throughput on
 * the same chunks, and the time to re-index a one-file change.
 */
@Command(name = "ingest", description = "Ingest throughput vs embedding-only throughput, one-file reindex time.")
public class BenchIngestCommand implements Callable<Integer> {
    @Mixin
    BenchContext.Options options;

    /** Spring arguments ({@code --poimen.x=y}): picocli hands unmatched arguments to the command, not a mixin. */
    @Unmatched
    List<String> springArgs = new ArrayList<>();

    @Option(names = "--changes", defaultValue = "5", description = "one-file changes to time (default 5)")
    int changes;

    @Override
    public Integer call() throws Exception {
        double[] before = new double[1];
        options.springArgs = springArgs;
        try (BenchContext bench = BenchContext.open(options, b -> before[0] = warmEmbeddingSeconds(b.spring, parse(b)))) {
            ConfigurableApplicationContext ctx = bench.spring;
            Path vault = bench.vault;
            Map<String, String> ids = bench.idByPath;
            ProducerTemplate producer = bench.producer;
            IngestReport full = bench.ingest;
            System.out.printf("full ingest: %d notes, %d chunks in %.2f s = %.1f chunks/s%n", full.changed(),
                    full.chunks(), full.seconds(), full.chunksPerSecond());
            System.out.println("full ingest, time by step (ms): " + full.stepMillis());

            // embedding alone, on the same chunk texts, just before and just after the ingest: the mean of the
            // two is the baseline, so that a shared machine slowing down or warming up affects both sides alike
            List<Chunk> chunks = ctx.getBean(NoteStore.class).allChunks();
            double after = embeddingSeconds(ctx, chunks);
            double embedRate = chunks.size() / ((before[0] + after) / 2);
            System.out.printf("embedding only: %d chunks in %.2f s before and %.2f s after the ingest = %.1f chunks/s%n",
                    chunks.size(), before[0], after, embedRate);
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

    /** The vault's chunks as ingest will make them (parsing is not timed). */
    private static List<Chunk> parse(BenchContext bench) throws IOException {
        NoteParser parser = bench.spring.getBean(NoteParser.class);
        List<Chunk> chunks = new ArrayList<>();
        for (String path : bench.idByPath.keySet()) {
            try {
                chunks.addAll(parser.parse(path, Files.readAllBytes(bench.vault.resolve(path))).chunks());
            } catch (NoteRejectedException e) {
                System.err.println("warning: " + path + ": " + e.getMessage());
            }
        }
        return chunks;
    }

    /** Embedding time of {@code chunks} after an untimed warm-up on the first 500, so JIT warm-up is not counted. */
    private static double warmEmbeddingSeconds(ConfigurableApplicationContext ctx, List<Chunk> chunks) {
        ctx.getBean(ChunkEmbedder.class).embed(chunks.subList(0, Math.min(500, chunks.size())));
        return embeddingSeconds(ctx, chunks);
    }

    private static double embeddingSeconds(ConfigurableApplicationContext ctx, List<Chunk> chunks) {
        long t0 = System.nanoTime();
        ctx.getBean(ChunkEmbedder.class).embed(chunks);
        return (System.nanoTime() - t0) / 1e9;
    }
}
