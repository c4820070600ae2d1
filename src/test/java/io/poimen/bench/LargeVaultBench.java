package io.poimen.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.poimen.memory.index.ChunkEmbedder;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.bench.eval.BeirVault;
import io.poimen.bench.eval.LatencyStats;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.NoteParser;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.util.FileSystemUtils;

/**
 * Full reindex of a large vault on PostgreSQL + pgvector and OpenSearch (the production stores), in bulk mode:
 * {@code --docs} notes (default 100,000, one chunk each) made from msmarco-5k passages, each with a sentence of its
 * own; prints the reindex time and rate next to the embedding-only rate on a sample of the same chunks (before and
 * after), the time by step (with the HNSW build), and hybrid query p50/p95 at that size.
 *
 * <pre>POIMEN_TEST_PG_URL=jdbc:postgresql://... java -cp "target/test-classes:target/classes:$(cat target/cp.txt)" \
 *     io.poimen.bench.LargeVaultBench --docs 100000 --source /work/shared/bench/msmarco-5k</pre>
 */
public final class LargeVaultBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USAGE = "usage: LargeVaultBench [--docs N (default 100000)]"
            + " [--sample N (chunks for the embedding-only rate, default 3000)]"
            + " [--source BEIR-FOLDER (default /work/shared/bench/msmarco-5k)]; PostgreSQL + pgvector at env POIMEN_TEST_PG_URL";

    private LargeVaultBench() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = bench(args);
        } catch (IllegalArgumentException e) {
            System.err.println("LargeVaultBench: " + e.getMessage());
            System.err.println(USAGE);
            status = 2;
        } catch (Exception | Error e) {
            System.err.println("LargeVaultBench failed: " + e);
            e.printStackTrace();
            status = 1;
        }
        System.exit(status); // the in-JVM OpenSearch node would keep the JVM alive
    }

    private static int bench(String[] args) throws Exception {
        int docs = 100_000;
        int sample = 3000;
        Path source = Path.of("/work/shared/bench/msmarco-5k");
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + args[i]);
            }
            switch (args[i]) {
                case "--docs" -> docs = positive(args[i], args[i + 1]);
                case "--sample" -> sample = positive(args[i], args[i + 1]);
                case "--source" -> source = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        for (String file : List.of("corpus.jsonl", "queries.jsonl", "qrels/test.tsv")) {
            if (!Files.isRegularFile(source.resolve(file))) {
                throw new IllegalArgumentException("no " + file + " in " + source + " (a BEIR folder)");
            }
        }
        Path dataset = Files.createTempDirectory("poimen-large-vault-");
        List<String> texts = widen(source, dataset, docs, sample);
        BenchContext.Options options = new BenchContext.Options();
        options.dataset = dataset;
        options.policy = Path.of("policies/retrieval.yaml");
        options.springArgs = new ArrayList<>(List.of("--poimen.vector.backend=pgvector",
                "--poimen.lexical.backend=opensearch", "--poimen.opensearch.url=" + TestOpenSearch.url(),
                "--poimen.opensearch.index=large-vault",
                "--spring.datasource.url=" + TestPostgres.freshDatabaseUrl("large_vault")));
        double[] before = new double[1];
        long t0 = System.nanoTime();
        try {
            return run(options, texts, before, t0);
        } finally {
            FileSystemUtils.deleteRecursively(dataset);
        }
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value.replace("_", "").replace(",", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " takes a positive whole number, not '" + value + "'");
    }

    /** @return the exit status: 1 when an answer came back empty or degraded */
    private static int run(BenchContext.Options options, List<String> texts, double[] before, long t0)
            throws Exception {
        int empty = 0;
        try (BenchContext bench = BenchContext.open(options, 0, b -> {
            before[0] = embeddingRate(b, texts);
            System.out.printf("embedding only before the reindex: %.1f chunks/s%n", before[0]);
        })) {
            IngestReport full = bench.ingest;
            double after = embeddingRate(bench, texts);
            double embedRate = (before[0] + after) / 2;
            System.out.printf("full reindex: %d notes, %d chunks in %.1f s = %.1f chunks/s (bulk mode)%n",
                    full.changed(), full.chunks(), full.seconds(), full.chunksPerSecond());
            System.out.println("time by step (ms): " + full.stepMillis());
            System.out.printf("embedding only (%d-chunk sample, before %.1f / after %.1f chunks/s): %.1f chunks/s;"
                    + " reindex / embedding-only = %.1f %%%n", texts.size(), before[0], after, embedRate,
                    100 * full.chunksPerSecond() / embedRate);
            System.out.println("vectors stored: " + bench.spring.getBean(VectorIndex.class).count());

            List<String> queries = bench.set.queries().values().stream().limit(50).toList();
            LatencyStats latency = new LatencyStats();
            Map<String, LatencyStats> steps = new java.util.TreeMap<>();
            for (int round = 0; round < 4; round++) {
                for (String q : queries) {
                    ObjectNode body = JSON.createObjectNode().put("project", BeirVault.PROJECT).put("query", q);
                    long q0 = System.nanoTime();
                    String out = bench.producer.requestBody("direct:query", JSON.writeValueAsBytes(body), String.class);
                    double ms = (System.nanoTime() - q0) / 1e6;
                    JsonNode r = JSON.readTree(out);
                    if (round > 0) { // the first round warms caches and JIT
                        latency.add(ms);
                        r.path("timings_ms").fields().forEachRemaining(step ->
                                steps.computeIfAbsent(step.getKey(), key -> new LatencyStats())
                                        .add(step.getValue().asDouble()));
                        if (r.path("results").isEmpty() || !r.path("degraded").isEmpty()) {
                            empty++;
                        }
                    }
                }
            }
            System.out.printf("hybrid query at %d chunks (pgvector + OpenSearch + TF-IDF): p50 %.0f ms, p95 %.0f ms"
                            + " over %d queries; %d empty or degraded%n", full.chunks(), latency.percentile(50),
                    latency.percentile(95), 3 * queries.size(), empty);
            StringBuilder byStep = new StringBuilder("query timings_ms p50 by step:");
            steps.forEach((step, stats) -> byStep.append(String.format(" %s %.1f", step, stats.percentile(50))));
            System.out.println(byStep);
        }
        System.out.printf("bench wall time %.0f s%n", (System.nanoTime() - t0) / 1e9);
        if (empty > 0) {
            System.err.println("LargeVaultBench: " + empty + " answers empty or degraded");
            return 1;
        }
        return 0;
    }

    /** Writes a BEIR folder of {@code docs} passages (the source's, cycled, each made unique); returns a sample. */
    private static List<String> widen(Path source, Path target, int docs, int samples) throws Exception {
        List<JsonNode> corpus = new ArrayList<>();
        for (String line : Files.readAllLines(source.resolve("corpus.jsonl"))) {
            if (!line.isBlank()) {
                corpus.add(JSON.readTree(line));
            }
        }
        List<String> sample = new ArrayList<>();
        try (BufferedWriter out = Files.newBufferedWriter(target.resolve("corpus.jsonl"))) {
            for (int i = 0; i < docs; i++) {
                JsonNode doc = corpus.get(i % corpus.size());
                String id = i < corpus.size() ? doc.path("_id").asText() : doc.path("_id").asText() + "-" + i;
                String text = doc.path("text").asText() + (i < corpus.size() ? "" : " Copy " + i + " of this passage.");
                out.write(JSON.writeValueAsString(Map.of("_id", id, "title", doc.path("title").asText(""), "text", text)));
                out.write('\n');
                if (sample.size() < samples && i % Math.max(1, docs / samples) == 0) {
                    sample.add(text);
                }
            }
        }
        Files.copy(source.resolve("queries.jsonl"), target.resolve("queries.jsonl"));
        Files.createDirectories(target.resolve("qrels"));
        Files.copy(source.resolve("qrels/test.tsv"), target.resolve("qrels/test.tsv"));
        return sample;
    }

    /** Chunks per second of the embedding model alone on the sample (after a short untimed warm-up). */
    private static double embeddingRate(BenchContext bench, List<String> texts) {
        NoteParser parser = bench.spring.getBean(NoteParser.class);
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            try {
                chunks.addAll(parser.parse("sample/" + i + ".md", texts.get(i).getBytes()).chunks());
            } catch (io.poimen.memory.vault.NoteRejectedException e) {
                throw new IllegalStateException(e);
            }
        }
        ChunkEmbedder embedder = bench.spring.getBean(ChunkEmbedder.class);
        embedder.embed(chunks.subList(0, Math.min(200, chunks.size())));
        long t0 = System.nanoTime();
        embedder.embed(chunks);
        return chunks.size() / ((System.nanoTime() - t0) / 1e9);
    }
}
