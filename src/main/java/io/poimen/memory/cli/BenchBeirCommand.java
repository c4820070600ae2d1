package io.poimen.memory.cli;

import java.util.ArrayList;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.poimen.memory.retrieval.eval.BeirBenchmark;
import io.poimen.memory.retrieval.eval.BeirDataset;
import io.poimen.memory.retrieval.eval.LatencyStats;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.camel.ProducerTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Unmatched;

/** {@code bench beir --dataset DIR}: nDCG@10, Recall@100, MRR@10 and latencies per method. */
@Command(name = "beir", description = "Run a BEIR-format set through the query route.")
public class BenchBeirCommand implements Callable<Integer> {
    @Mixin
    BenchContext.Options options;

    /** Spring arguments ({@code --poimen.x=y}): picocli hands unmatched arguments to the command, not a mixin. */
    @Unmatched
    List<String> springArgs = new ArrayList<>();

    @Option(names = "--methods", split = ",", description = "default: ${DEFAULT-VALUE}",
            defaultValue = "tfidf,lexical,semantic,hybrid,hybrid-calibrated,hybrid-weighted,hybrid-rrf")
    List<String> methods;

    @Option(names = "--out", description = "JSON file for the results")
    Path out;

    @Option(names = "--run-dir", description = "write a TREC run file per method into this folder")
    Path runDir;

    @Option(names = "--dump-branches", description = "write each judged query's branch lists (ids, raw scores) "
            + "of a hybrid query to this JSON file, for offline fusion experiments")
    Path dumpBranches;

    @Override
    public Integer call() throws Exception {
        for (String m : methods) {
            if (!BeirBenchmark.METHODS.containsKey(m)) {
                System.err.println("error: unknown method " + m + "; known: " + BeirBenchmark.METHODS.keySet());
                return 2;
            }
        }
        options.springArgs = springArgs;
        try (BenchContext bench = BenchContext.open(options)) {
            BeirDataset set = bench.set;
            System.out.printf("%s: %d docs, %d judged queries; ingest %d chunks in %.1f s (%.0f chunks/s)%n",
                    set.name(), set.corpus().size(), set.judgedQueries().size(), bench.ingest.chunks(),
                    bench.ingest.seconds(), bench.ingest.chunksPerSecond());
            if (dumpBranches != null) {
                Map<String, String> docByChunk = new java.util.TreeMap<>();
                bench.spring.getBean(io.poimen.memory.index.NoteStore.class).allChunks()
                        .forEach(c -> docByChunk.put(c.id(), bench.idByPath.getOrDefault(c.path(), c.path())));
                new BeirBenchmark(bench.producer).dumpBranches(set, docByChunk, dumpBranches);
                System.out.println("written " + dumpBranches);
            }
            Map<String, BeirBenchmark.MethodResult> results = new BeirBenchmark(bench.producer)
                    .run(set, bench.idByPath, methods, runDir);
            Map<String, Object> report = report(set, results);
            print(results, report);
            if (out != null) {
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), report);
                System.out.println("written " + out);
            }
            return 0;
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
    }

    static Map<String, Object> report(BeirDataset set, Map<String, BeirBenchmark.MethodResult> results) {
        Map<String, Object> methods = new LinkedHashMap<>();
        results.forEach((name, r) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ndcg@10", r.ndcg10());
            m.put("recall@100", r.recall100());
            m.put("mrr@10", r.mrr10());
            m.put("latency_ms", latency(r.total()));
            Map<String, Object> branches = new LinkedHashMap<>();
            r.branches().forEach((b, s) -> branches.put(b, latency(s)));
            m.put("branch_latency_ms", branches);
            methods.put(name, m);
        });
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("dataset", set.name());
        report.put("docs", set.corpus().size());
        report.put("queries", set.judgedQueries().size());
        report.put("methods", methods);
        BeirBenchmark.MethodResult hybrid = results.getOrDefault("hybrid", results.get("hybrid-weighted"));
        if (hybrid != null) {
            // the same route with one branch: the limit of a perfectly parallel hybrid is the slowest of these
            double slowest = List.of("tfidf", "lexical", "semantic").stream().filter(results::containsKey)
                    .mapToDouble(m -> results.get(m).total().percentile(50)).max()
                    .orElseGet(() -> java.util.stream.Stream.of("tfidf", "semantic", "lexical")
                            .filter(hybrid.branches()::containsKey)
                            .mapToDouble(b -> hybrid.branches().get(b).percentile(50)).max().orElse(0));
            report.put("slowest_branch_p50_ms", slowest);
            report.put("hybrid_p50_ms", hybrid.total().percentile(50));
            report.put("parallel_ratio", slowest > 0 ? hybrid.total().percentile(50) / slowest : 0);
        }
        return report;
    }

    private static Map<String, Double> latency(LatencyStats s) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("mean", s.mean());
        m.put("p50", s.percentile(50));
        m.put("p95", s.percentile(95));
        return m;
    }

    private static void print(Map<String, BeirBenchmark.MethodResult> results, Map<String, Object> report) {
        System.out.printf("%-16s %8s %10s %7s %9s %9s   %s%n", "method", "nDCG@10", "Recall@100", "MRR@10",
                "mean ms", "p95 ms", "step p50/p95 ms");
        results.forEach((name, r) -> {
            StringBuilder b = new StringBuilder();
            r.branches().forEach((k, s) -> b.append(String.format("%s %.1f/%.1f  ", k, s.percentile(50),
                    s.percentile(95))));
            System.out.printf("%-16s %8.4f %10.4f %7.4f %9.1f %9.1f   %s%n", name, r.ndcg10(), r.recall100(),
                    r.mrr10(), r.total().mean(), r.total().percentile(95), b);
        });
        if (report.containsKey("parallel_ratio")) {
            System.out.printf("hybrid p50 %.1f ms, slowest single-branch method p50 %.1f ms, parallel_ratio %.2f%n",
                    (Double) report.get("hybrid_p50_ms"), (Double) report.get("slowest_branch_p50_ms"),
                    (Double) report.get("parallel_ratio"));
        }
    }
}
