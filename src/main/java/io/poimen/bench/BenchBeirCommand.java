package io.poimen.bench;

import java.util.ArrayList;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.poimen.bench.eval.BeirBenchmark;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.retrieval.RetrievalPolicy;
import io.poimen.memory.retrieval.RetrievalSettings;
import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.CorpusTermShares;
import io.poimen.bench.eval.FusionReplay;
import io.poimen.bench.eval.JudgedSet;
import io.poimen.bench.eval.JudgedVault;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.retrieval.query.QueryNormalizer;
import io.poimen.bench.eval.LatencyStats;
import io.poimen.bench.eval.PairedMargin;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench beir --dataset DIR [--dataset DIR2 ...] [--judged VAULT=QUESTIONS ...]}: nDCG@10, Recall@100, MRR@10
 * and latencies per method and set (a fresh hub per set; a judged vault is judged per section, {@link JudgedVault}),
 * then per set each branch, the default hybrid and its margin over the best branch, and with two or more sets the
 * adaptive fusion fitted leave-one-set-out on their branch lists (as {@code bench replay}: each set scored with the
 * point chosen on the others).
 */
@Command(name = "beir", description = "Run BEIR-format sets through the query route; with several, also the "
        + "leave-one-set-out fit.")
public class BenchBeirCommand implements Callable<Integer> {
    private static final List<String> BRANCHES = List.of("tfidf", "lexical", "semantic");

    @Option(names = "--dataset",
            description = "BEIR folder with corpus.jsonl, queries.jsonl, qrels/test.tsv (repeat for several sets)")
    List<Path> datasets = new ArrayList<>();

    @Option(names = "--judged", description = "a vault and its questions judged per section, VAULT=QUESTIONS "
            + "(examples/queries/*.jsonl; repeat for several); its dump holds the hub's term shares")
    List<String> judged = new ArrayList<>();

    @Option(names = "--policy", defaultValue = "policies/retrieval.yaml", description = "retrieval policy to use")
    Path policy;

    @Option(names = "--candidates-per-branch", description = "hits each branch returns (default: the policy's "
            + "candidates_per_branch, as a hub runs it; 100 to read Recall@100 of every branch)")
    Integer candidatesPerBranch;

    /** Spring arguments ({@code --poimen.x=y}): picocli hands unmatched arguments to the command. */
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
            + "of a hybrid query to this JSON file (with several sets: to <this folder>/<set>.json), for bench replay")
    Path dumpBranches;

    @Option(names = "--loso", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "with two or more sets, fit the adaptive fusion leave-one-set-out (default: ${DEFAULT-VALUE})")
    boolean loso;

    @Override
    public Integer call() throws Exception {
        for (String m : methods) {
            if (!BeirBenchmark.METHODS.containsKey(m)) {
                System.err.println("error: unknown method " + m + "; known: " + BeirBenchmark.METHODS.keySet());
                return 2;
            }
        }
        if (candidatesPerBranch != null && candidatesPerBranch < 1) {
            System.err.println("error: --candidates-per-branch must be at least 1, got " + candidatesPerBranch);
            return 2;
        }
        if (datasets.isEmpty() && judged.isEmpty()) {
            System.err.println("error: give at least one --dataset or --judged");
            return 2;
        }
        List<JudgedVault> vaults = new ArrayList<>();
        for (String j : judged) {
            int eq = j.indexOf('=');
            Path vault = eq < 0 ? null : Path.of(j.substring(0, eq));
            Path questions = eq < 0 ? null : Path.of(j.substring(eq + 1));
            if (vault == null || !java.nio.file.Files.isDirectory(vault)
                    || !java.nio.file.Files.isRegularFile(questions)) {
                System.err.println("error: --judged takes VAULT=QUESTIONS, an existing vault folder and questions "
                        + "file: " + j);
                return 2;
            }
            try {
                vaults.add(JudgedVault.load(vault, questions));
            } catch (IllegalArgumentException | java.io.IOException e) {
                System.err.println("error: " + e.getMessage());
                return 2;
            }
        }
        boolean several = datasets.size() + vaults.size() > 1;
        boolean fit = several && loso;
        List<Map<String, Object>> reports = new ArrayList<>();
        List<FusionReplay.Dump> dumps = new ArrayList<>();
        Path scratch = java.nio.file.Files.createTempDirectory("poimen-beir-");
        EmbeddingModelChoice model = EmbeddingModelChoice.defaultChoice();
        try {
            for (Path dataset : datasets) {
                BenchContext.Options options = new BenchContext.Options();
                options.dataset = dataset;
                options.policy = policy;
                options.springArgs = springArgs;
                options.candidatesPerBranch = candidatesPerBranch;
                try (BenchContext bench = BenchContext.open(options, 0, BenchContext::startFromEmptyStores)) {
                    model = bench.spring.getBean(EmbeddingModelChoice.class);
                    BeirDataset set = bench.set;
                    JudgedSet judgedSet = JudgedSet.of(set, bench.idByPath);
                    Path dump = runSet(bench, judgedSet, set.corpus().size(), several, scratch, fit,
                            hubTermShares(bench), reports);
                    if (dump != null && fit) { // the corpus gives the shares of chunks a noise variant borrows
                        dumps.add(FusionReplay.load(dump).withShares(new CorpusTermShares(set.corpus())));
                    }
                }
            }
            for (JudgedVault set : vaults) {
                try (BenchContext bench = BenchContext.openVault(set.vault(), policy, candidatesPerBranch, springArgs,
                        BenchContext::startFromEmptyStores)) {
                    model = bench.spring.getBean(EmbeddingModelChoice.class);
                    Path dump = runSet(bench, set, bench.ingest.notes(), several, scratch, fit,
                            hubTermShares(bench), reports);
                    if (dump != null && fit) {
                        dumps.add(FusionReplay.load(dump));
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        } finally {
            org.springframework.util.FileSystemUtils.deleteRecursively(scratch);
        }
        System.out.println();
        List<Map<String, Object>> margins = printMargins(reports);
        if (fit) {
            RetrievalSettings s = new RetrievalPolicy(policy.toAbsolutePath().getParent(), model).current();
            System.out.println();
            BenchReplayCommand.printHeldOut(BenchReplayCommand.leaveOneSetOut(dumps, s, model.scripts()));
        }
        if (out != null) {
            Object written = several ? Map.of("sets", reports, "margins", margins) : reports.get(0);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), written);
            System.out.println("written " + out);
        }
        return 0;
    }

    /**
     * The term shares the hub's gate reads (question text, project → chunk id → share), from the hub's own TF-IDF
     * index and the query terms its fusion reads, so that a replay of the dump scores the coverage keep as the hub
     * does.
     */
    private static java.util.function.BiFunction<String, String, java.util.function.ToDoubleFunction<String>>
            hubTermShares(BenchContext bench) {
        TfIdfIndex tfidf = bench.spring.getBean(TfIdfIndex.class);
        QueryNormalizer normalizer = new QueryNormalizer();
        return (text, project) -> tfidf.termShares(normalizer.normalize(text).terms(), project, null);
    }

    /**
     * One set on its hub: the branch dump (when asked for, or for the fit), every method's figures, the report.
     *
     * @param shares the hub's term shares to write into the dump
     * @return the dump written, or null
     */
    private Path runSet(BenchContext bench, JudgedSet set, int docs, boolean several, Path scratch, boolean fit,
                        java.util.function.BiFunction<String, String, java.util.function.ToDoubleFunction<String>>
                                shares, List<Map<String, Object>> reports) throws java.io.IOException {
        int candidates = bench.spring.getBean(RetrievalPolicy.class).current().candidatesPerBranch();
        System.out.printf("%s: %d docs, %d judged queries; ingest %d chunks in %.1f s (%.0f chunks/s); "
                        + "%d candidates per branch%n", set.name(), docs, set.judgedQueries().size(),
                bench.ingest.chunks(), bench.ingest.seconds(), bench.ingest.chunksPerSecond(), candidates);
        Path dump = dumpBranches == null ? (fit ? scratch.resolve(set.name() + ".json") : null)
                : several ? java.nio.file.Files.createDirectories(dumpBranches).resolve(set.name() + ".json")
                : dumpBranches;
        if (dump != null) {
            Map<String, String> docByChunk = new java.util.TreeMap<>();
            bench.spring.getBean(io.poimen.memory.index.NoteStore.class).allChunks().forEach(c -> {
                String doc = set.document(c.path(), c.heading());
                docByChunk.put(c.id(), doc == null ? c.path() : doc);
            });
            new BeirBenchmark(bench.producer).dumpBranches(set, docByChunk, dump, shares);
            System.out.println("written " + dump);
        }
        Map<String, BeirBenchmark.MethodResult> results = new BeirBenchmark(bench.producer).run(set, methods,
                runDir == null ? null : several ? runDir.resolve(set.name()) : runDir);
        Map<String, Object> report = report(set, docs, results);
        report.put("candidates_per_branch", candidates);
        print(results, report);
        reports.add(report);
        return dump;
    }

    /**
     * Per set: each branch, the default hybrid, the best branch and the hybrid's margin over it, with the margin
     * read per query when the reports hold each query's nDCG@10 ({@link PairedMargin}: queries better / worse and
     * a 90 % bootstrap interval).
     */
    static List<Map<String, Object>> printMargins(List<Map<String, Object>> reports) {
        System.out.printf("%-18s %8s %8s %8s %8s %10s %8s %19s %13s%n", "set (nDCG@10)", "tfidf", "lexical",
                "semantic", "hybrid", "best", "margin", "90% interval", "better/worse");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map<String, Object> report : reports) {
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> m = (Map<String, Map<String, Object>>) report.get("methods");
            String best = null;
            for (String b : BRANCHES) {
                if (m.containsKey(b) && (best == null || ndcg(m, b) > ndcg(m, best))) {
                    best = b;
                }
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("dataset", report.get("dataset"));
            StringBuilder line = new StringBuilder(String.format("%-18s", report.get("dataset")));
            for (String method : List.of("tfidf", "lexical", "semantic", "hybrid")) {
                line.append(m.containsKey(method) ? String.format(" %8.4f", ndcg(m, method)) : String.format(" %8s", "-"));
                if (m.containsKey(method)) {
                    row.put(method, ndcg(m, method));
                }
            }
            if (best != null && m.containsKey("hybrid")) {
                double margin = ndcg(m, "hybrid") - ndcg(m, best);
                line.append(String.format(" %10s %+8.4f", best, margin));
                row.put("best_branch", best);
                row.put("margin", margin);
                Map<String, Double> hybrid = byQuery(m, "hybrid");
                Map<String, Double> branch = byQuery(m, best);
                if (hybrid != null && branch != null) {
                    PairedMargin paired = PairedMargin.of(hybrid, branch);
                    line.append(String.format("  [%+.4f, %+.4f] %6d/%d", paired.low(), paired.high(),
                            paired.better(), paired.worse()));
                    row.put("margin_interval_90", List.of(paired.low(), paired.high()));
                    row.put("queries_better", paired.better());
                    row.put("queries_worse", paired.worse());
                }
            }
            System.out.println(line);
            rows.add(row);
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Double> byQuery(Map<String, Map<String, Object>> methods, String method) {
        return (Map<String, Double>) methods.get(method).get("ndcg@10_by_query");
    }

    private static double ndcg(Map<String, Map<String, Object>> methods, String method) {
        return ((Number) methods.get(method).get("ndcg@10")).doubleValue();
    }

    static Map<String, Object> report(JudgedSet set, int docs, Map<String, BeirBenchmark.MethodResult> results) {
        Map<String, Object> methods = new LinkedHashMap<>();
        results.forEach((name, r) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ndcg@10", r.ndcg10());
            m.put("recall@100", r.recall100());
            m.put("mrr@10", r.mrr10());
            m.put("ndcg@10_by_query", r.ndcgByQuery());
            m.put("latency_ms", latency(r.total()));
            Map<String, Object> branches = new LinkedHashMap<>();
            r.branches().forEach((b, s) -> branches.put(b, latency(s)));
            m.put("branch_latency_ms", branches);
            methods.put(name, m);
        });
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("dataset", set.name());
        report.put("docs", docs);
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
