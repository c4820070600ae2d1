package io.poimen.bench;

import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.bench.eval.LatencyStats;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.NoteRejectedException;
import io.poimen.memory.vault.VaultScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench ingest --dataset DIR}: full-ingest throughput next to the embedding model's own throughput on
 * the same chunks, and the time to re-index a one-file change.
 *
 * <p>Embedding-only is the ingest's own {@code ChunkEmbedder} (same model, same batch size) on the same chunk texts
 * cut into the same file batches as the ingest route's split, without any store; the ingest is the whole route
 * (plan, parse, chunk, embed, vector and lexical stores, rows, TF-IDF, graph). They alternate: embedding-only,
 * ingest, embedding-only, ingest, ..., embedding-only; each ingest is compared with the mean of the two
 * embedding-only passes around it, so that a shared machine speeding up or slowing down moves both sides. Every
 * ingest after the first starts from empty stores (the vault's notes removed by an untimed ingest of an empty
 * folder). Any profile's stores: the prod profile's PostgreSQL and OpenSearch come from the usual settings.
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

    @Option(names = "--rounds", defaultValue = "1",
            description = "ingests, each between two embedding-only passes (default 1)")
    int rounds;

    @Option(names = "--docs", defaultValue = "0",
            description = "only the first N documents of the corpus (default 0: all)")
    int docs;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || docs < 0 || changes < 0) {
            System.err.println("error: --rounds must be at least 1, --docs and --changes not negative");
            return 2;
        }
        List<List<Chunk>> batches = new ArrayList<>();
        List<Double> embedding = new ArrayList<>();
        options.springArgs = springArgs;
        try (BenchContext bench = BenchContext.open(options, docs, b -> {
            BenchContext.startFromEmptyStores(b); // round 1 as the later rounds: nothing else in the stores
            batches.addAll(batches(b));
            warmUp(b.spring, batches);
            embedding.add(embeddingSeconds(b.spring, batches));
        })) {
            return measure(bench, batches, embedding);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
    }

    private int measure(BenchContext bench, List<List<Chunk>> batches, List<Double> embedding) throws IOException {
        ConfigurableApplicationContext ctx = bench.spring;
        int chunks = batches.stream().mapToInt(List::size).sum();
        List<IngestReport> ingests = new ArrayList<>(List.of(bench.ingest));
        embedding.add(embeddingSeconds(ctx, batches));
        for (int r = 1; r < rounds; r++) {
            bench.removeVault(); // untimed: empty stores
            ingests.add(bench.producer.requestBody("direct:ingest", bench.vault, IngestReport.class));
            embedding.add(embeddingSeconds(ctx, batches));
        }
        System.out.printf("%d chunks of %d notes in %d batches, %d round(s); embedding-only passes (s): %s%n",
                chunks, bench.idByPath.size(), batches.size(), rounds, embedding.stream()
                        .map(s -> String.format("%.1f", s)).toList());
        List<Double> ratios = new ArrayList<>();
        double ingestSeconds = 0;
        double embedSeconds = 0;
        for (int r = 0; r < ingests.size(); r++) {
            IngestReport full = ingests.get(r);
            if (full.chunks() != chunks) {
                System.err.printf("warning: round %d ingested %d chunks, embedding-only embeds %d%n", r + 1,
                        full.chunks(), chunks);
            }
            double embed = (embedding.get(r) + embedding.get(r + 1)) / 2;
            double ratio = full.chunksPerSecond() / (chunks / embed);
            ratios.add(ratio);
            ingestSeconds += full.seconds();
            embedSeconds += embed;
            System.out.printf("round %d: full ingest %d notes, %d chunks in %.2f s = %.1f chunks/s; embedding only"
                            + " %.2f s before, %.2f s after = %.1f chunks/s; ingest / embedding-only = %.1f %%%n",
                    r + 1, full.changed(), full.chunks(), full.seconds(), full.chunksPerSecond(), embedding.get(r),
                    embedding.get(r + 1), chunks / embed, 100 * ratio);
            System.out.println("round " + (r + 1) + ", time by step (ms): " + full.stepMillis());
        }
        List<Double> sorted = ratios.stream().sorted().toList();
        double median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        System.out.printf("all rounds: ingest %.1f chunks/s, embedding only %.1f chunks/s%n",
                ingests.stream().mapToInt(IngestReport::chunks).sum() / ingestSeconds,
                ingests.size() * chunks / embedSeconds);
        System.out.printf("ingest / embedding-only = %.1f %% (median of %d rounds; min %.1f %%, max %.1f %%)%n",
                100 * median, ratios.size(), 100 * sorted.get(0), 100 * sorted.get(sorted.size() - 1));
        oneFileChanges(bench, chunks);
        return 0;
    }

    private void oneFileChanges(BenchContext bench, int chunks) throws IOException {
        if (changes == 0) {
            return;
        }
        LatencyStats change = new LatencyStats();
        String path = bench.idByPath.keySet().stream().sorted().findFirst().orElseThrow();
        for (int i = 0; i < changes; i++) {
            Files.writeString(bench.vault.resolve(path), "\nEdit number " + i + " of this note.\n",
                    StandardOpenOption.APPEND);
            long c0 = System.nanoTime();
            IngestReport r = bench.producer.requestBody("direct:ingest", bench.vault, IngestReport.class);
            change.add((System.nanoTime() - c0) / 1e6);
            if (r.changed() != 1) {
                System.err.println("warning: expected one changed note, got " + r.changed());
            }
        }
        System.out.printf("one-file change on a %d-chunk vault: reindex p50 %.0f ms, max %.0f ms (%d runs)%n",
                chunks, change.percentile(50), change.percentile(100), changes);
    }

    /**
     * The vault's chunks in the ingest route's file batches: the scanner's order, {@code poimen.vault.files-per-batch}
     * notes a batch (parsing is not timed).
     */
    private static List<List<Chunk>> batches(BenchContext bench) throws IOException {
        NoteParser parser = bench.spring.getBean(NoteParser.class);
        int filesPerBatch = bench.spring.getBean(PoimenProperties.class).vault().filesPerBatch();
        List<String> paths = bench.spring.getBean(VaultScanner.class).scan(bench.vault).markdown();
        List<List<Chunk>> batches = new ArrayList<>();
        for (int from = 0; from < paths.size(); from += filesPerBatch) {
            List<Chunk> batch = new ArrayList<>();
            for (String path : paths.subList(from, Math.min(paths.size(), from + filesPerBatch))) {
                try {
                    batch.addAll(parser.parse(path, Files.readAllBytes(bench.vault.resolve(path))).chunks());
                } catch (NoteRejectedException e) {
                    System.err.println("warning: " + path + ": " + e.getMessage());
                }
            }
            batches.add(batch);
        }
        return batches;
    }

    /** An untimed pass over the first 500 chunks, so that JIT warm-up is not counted. */
    private static void warmUp(ConfigurableApplicationContext ctx, List<List<Chunk>> batches) {
        List<Chunk> all = batches.stream().flatMap(List::stream).toList();
        ctx.getBean(ChunkEmbedder.class).embed(all.subList(0, Math.min(500, all.size())));
    }

    private static double embeddingSeconds(ConfigurableApplicationContext ctx, List<List<Chunk>> batches) {
        ChunkEmbedder embedder = ctx.getBean(ChunkEmbedder.class);
        long t0 = System.nanoTime();
        for (List<Chunk> batch : batches) {
            embedder.embed(batch);
        }
        return (System.nanoTime() - t0) / 1e9;
    }
}
