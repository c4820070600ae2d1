package io.poimen.memory.index.tfidf;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.Terms;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Query latency of {@link TfIdfIndex} on one 10,000-chunk project (target: p95 below 5 ms).
 * Words follow a Zipf distribution (s = 1) over a generated vocabulary; seeded, so runs are comparable.
 * Run: {@code java -cp target/classes:target/test-classes:<deps> io.poimen.memory.index.tfidf.TfIdfBenchmark}
 */
public final class TfIdfBenchmark {
    static final int CHUNKS = 10_000;
    static final int CHUNKS_PER_NOTE = 4;
    static final int VOCABULARY = 20_000;
    static final int QUERIES = 1_000;
    static final int WARMUP = 300;

    private final Random random = new Random(42);
    private final double[] cumulative = zipf(VOCABULARY);
    private final String[] words = vocabulary();

    public static void main(String[] args) {
        new TfIdfBenchmark().run();
    }

    void run() {
        List<Chunk> chunks = new ArrayList<>();
        Set<String> scope = new HashSet<>();
        for (int i = 0; i < CHUNKS; i++) {
            String path = "projects/bench/note-" + (i / CHUNKS_PER_NOTE) + ".md";
            scope.add(path);
            String heading = text(3);
            chunks.add(new Chunk(Chunk.idOf(path, i % CHUNKS_PER_NOTE), path, "bench", i % CHUNKS_PER_NOTE, heading,
                    List.of(heading), text(50 + random.nextInt(250)), 0,
                    new ChunkMetadata(heading, "", List.of(word(), word()), ChunkMetadata.CONCEPT), List.of()));
        }
        TfIdfIndex index = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        long t0 = System.nanoTime();
        index.addAll(chunks);
        System.out.printf("indexed %d chunks in %d ms%n", index.size(), (System.nanoTime() - t0) / 1_000_000);

        List<List<String>> queries = new ArrayList<>();
        for (int i = 0; i < WARMUP + QUERIES; i++) {
            queries.add(Terms.analyze(text(2 + random.nextInt(5))));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] wall = new long[QUERIES];
        long[] cpu = new long[QUERIES];
        long hits = 0;
        for (int i = 0; i < queries.size(); i++) {
            long cpuStart = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            hits += index.search(queries.get(i), "bench", scope, 50).size();
            if (i >= WARMUP) {
                wall[i - WARMUP] = System.nanoTime() - start;
                cpu[i - WARMUP] = threads.getCurrentThreadCpuTime() - cpuStart;
            }
        }
        System.out.printf("%d queries (k=50, project scope of %d notes), mean hits %.1f%n", QUERIES, scope.size(),
                hits / (double) queries.size());
        print("wall", wall);
        print("cpu ", cpu);
    }

    /** Wall time includes waiting for a core on a loaded machine; thread CPU time does not. */
    static void print(String label, long[] nanos) {
        Arrays.sort(nanos);
        System.out.printf("  %s p50 %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms%n", label, ms(nanos, 0.50),
                ms(nanos, 0.95), ms(nanos, 0.99), nanos[nanos.length - 1] / 1e6);
    }

    static double ms(long[] sorted, double q) {
        return sorted[(int) Math.ceil(q * sorted.length) - 1] / 1e6;
    }

    private String text(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(word()).append(' ');
        }
        return sb.toString();
    }

    private String word() {
        int rank = Arrays.binarySearch(cumulative, random.nextDouble());
        return words[rank < 0 ? Math.min(-rank - 1, VOCABULARY - 1) : rank];
    }

    private static double[] zipf(int n) {
        double[] c = new double[n];
        double sum = 0;
        for (int r = 0; r < n; r++) {
            sum += 1.0 / (r + 1);
            c[r] = sum;
        }
        for (int r = 0; r < n; r++) {
            c[r] /= sum;
        }
        return c;
    }

    /** Letter-only pseudo words ("bakodu", ...) so the English analyzer treats them like words. */
    private String[] vocabulary() {
        String consonants = "bcdfghklmnprstvz";
        String vowels = "aeiou";
        Set<String> seen = new HashSet<>();
        String[] out = new String[VOCABULARY];
        int i = 0;
        while (i < VOCABULARY) {
            StringBuilder w = new StringBuilder();
            for (int s = 0, len = 2 + random.nextInt(3); s < len; s++) {
                w.append(consonants.charAt(random.nextInt(consonants.length())))
                        .append(vowels.charAt(random.nextInt(vowels.length())));
            }
            if (Terms.term(w.toString()) != null && seen.add(w.toString())) {
                out[i++] = w.toString();
            }
        }
        return out;
    }
}
