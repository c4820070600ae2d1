package io.poimen.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.langchain4j.model.embedding.EmbeddingModel;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.retrieval.QueryEmbeddingCache;
import io.poimen.memory.retrieval.RetrievalPolicy;
import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.BeirVault;
import io.poimen.bench.eval.EngineFloor;
import io.poimen.bench.eval.LatencyRun;
import io.poimen.bench.eval.LatencyStats;
import io.poimen.bench.eval.SteadyStateWarmUp;
import io.poimen.memory.vault.Chunk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.springframework.boot.web.context.WebServerApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench latency --dataset DIR | --vault DIR}: the engines' own calls next to the query route's steps, in
 * process and over HTTP (the hub serving on a free loopback port), 1 client and N clients, with the
 * query-embedding cache emptied before each request (cold) and then left to work (warm).
 */
@Command(name = "latency", description = "Route steps vs the engines' own calls, in process and over HTTP.")
public class BenchLatencyCommand implements Callable<Integer> {
    @Option(names = "--dataset", description = "BEIR folder: its corpus is written as the vault, its queries sent")
    Path dataset;

    @Option(names = "--vault", description = "an existing vault folder to ingest and query")
    Path vault;

    @Option(names = "--notes", defaultValue = "0",
            description = "with --dataset: pad the vault to this many notes (sentences of two corpus documents)")
    int notes;

    @Option(names = "--project", description = "project to query (default: bench, or the vault's first project)")
    String project;

    @Option(names = "--queries", description = "file with one query per line (default: the dataset's queries, "
            + "or headings and first words of the vault's chunks)")
    Path queries;

    @Option(names = "--requests", defaultValue = "400", description = "requests per phase (default 400)")
    int requests;

    @Option(names = "--clients", defaultValue = "16", description = "concurrent clients of the load phase")
    int clients;

    @Option(names = "--http-warm-up", defaultValue = "auto", description = "requests over HTTP before the phases: "
            + "a number, or auto (default): at least 5,000 in rounds of 250, until the p50 has stopped falling for "
            + "two rounds (at most 10,000); the servlet stack runs once a request and needs thousands to reach the "
            + "JIT's last tier, while the engine floor's loops are compiled after a few dozen")
    String httpWarmUp;

    @Option(names = "--top-k", defaultValue = "10")
    int topK;

    @Option(names = "--method", defaultValue = "hybrid", description = "search_method of every query")
    String method;

    @Option(names = "--policy", defaultValue = "policies/retrieval.yaml", description = "retrieval policy to use")
    Path policy;

    @Option(names = "--out", description = "JSON file for every figure printed")
    Path out;

    @Unmatched
    List<String> springArgs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if ((dataset == null) == (vault == null)) {
            System.err.println("error: give exactly one of --dataset DIR or --vault DIR");
            return 2;
        }
        if (dataset != null && !Files.isRegularFile(dataset.resolve("corpus.jsonl"))) {
            System.err.println("error: no corpus.jsonl in " + dataset);
            return 2;
        }
        if (vault != null && !Files.isDirectory(vault)) {
            System.err.println("error: no vault folder " + vault);
            return 2;
        }
        if (requests < 1 || clients < 1 || topK < 1 || topK > 100) {
            System.err.println("error: --requests and --clients must be >= 1, --top-k in 1..100");
            return 2;
        }
        if (!"auto".equals(httpWarmUp) && !httpWarmUp.matches("\\d{1,7}")) {
            System.err.println("error: --http-warm-up must be auto or a number of requests, got " + httpWarmUp);
            return 2;
        }
        BeirDataset set = dataset == null ? null : BeirDataset.load(dataset);
        try (BenchContext bench = BenchContext.serving(set, notes, vault, policy, springArgs)) {
            var spring = bench.spring;
            String p = project != null ? project : vault == null ? BeirVault.PROJECT
                    : spring.getBean(io.poimen.memory.graph.GraphService.class).current().projects().stream()
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("the vault has no projects/ folder"));
            List<String> texts = queryTexts(set, spring.getBean(NoteStore.class));
            int k = spring.getBean(RetrievalPolicy.class).current().candidatesPerBranch();
            System.out.printf("%d notes, %d chunks ingested in %.1f s; %d query texts, project %s, top_k %d, "
                            + "%d candidates per branch, %s%n", bench.ingest.changed(), bench.ingest.chunks(),
                    bench.ingest.seconds(), texts.size(), p, topK, k, method);
            return measure(bench, p, texts, k);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
    }

    private int measure(BenchContext bench, String p, List<String> texts, int k) throws Exception {
        var spring = bench.spring;
        QueryEmbeddingCache cache = spring.getBean(QueryEmbeddingCache.class);
        int port = ((WebServerApplicationContext) spring).getWebServer().getPort();
        // one kept-alive socket per client thread, request in one write (BenchHttpClient says why not HttpURLConnection)
        String token = System.getenv("MEM_API_TOKEN");
        try (BenchHttpClient http = new BenchHttpClient("127.0.0.1", port, "/memory/query", token)) {
            return measurePhases(bench, p, texts, k, cache, http::post);
        }
    }

    private int measurePhases(BenchContext bench, String p, List<String> texts, int k, QueryEmbeddingCache cache,
                              LatencyRun.Call overHttp) throws Exception {
        var spring = bench.spring;
        LatencyRun.Call inProcess = body -> bench.producer.requestBody("direct:query", body, byte[].class);
        LatencyRun run = new LatencyRun(texts, p, topK, method);
        Runnable cold = cache::clear;
        java.util.function.Supplier<long[]> counts = () -> new long[] {cache.hits(), cache.misses()};
        Runnable floorRun = () -> { };
        EmbeddingModel model = spring.getBean("queryEmbeddingModel", EmbeddingModel.class); // the route's own
        LexicalIndex lexical = spring.getBean(LexicalIndex.class);
        VectorIndex vectors = spring.getBean(VectorIndex.class);
        TfIdfIndex tfidf = spring.getBean(TfIdfIndex.class);
        // the route's scope for a caller who may read the whole project (the prod stores' calls are timed with it)
        java.util.Set<String> own = spring.getBean(io.poimen.memory.graph.GraphService.class).current().projectNotes(p);
        SearchScope scope = SearchScope.ofProject(p, own, own, List.of());

        // warm-up: JIT, connection pool, the model's first runs
        run.run("warm-up", inProcess, 1, Math.min(100, requests), cold, counts);
        SteadyStateWarmUp.Result warmUp = warmUpOverHttp(run, overHttp, cold, counts);
        System.out.printf("HTTP warm-up: %d requests, %s; p50 per round %s ms%n", warmUp.requests(),
                warmUp.steady() ? "steady" : "still falling at the end", warmUp.roundP50s().stream()
                        .map(v -> String.format(java.util.Locale.ROOT, "%.2f", v)).toList());
        EngineFloor.measure(texts, Math.min(50, requests), model, lexical, vectors, tfidf, p, scope, k);

        // the floor before and after the route phases, so a machine that slows down weighs on both sides
        Map<String, LatencyStats> floor = EngineFloor.measure(texts, requests / 2, model, lexical, vectors, tfidf, p,
                scope, k);
        List<LatencyRun.Phase> phases = new ArrayList<>();
        phases.add(run.run("in-process, 1 client, cold cache", inProcess, 1, requests, cold, counts));
        phases.add(run.run("HTTP, 1 client, cold cache", overHttp, 1, requests, cold, counts));
        phases.add(run.run("HTTP, " + clients + " clients, cold cache", overHttp, clients, requests, cold, counts));
        phases.add(run.run("HTTP, 1 client, warm cache", overHttp, 1, requests, floorRun, counts));
        phases.add(run.run("HTTP, " + clients + " clients, warm cache", overHttp, clients, requests, floorRun, counts));
        Map<String, LatencyStats> after = EngineFloor.measure(texts, requests - requests / 2, model, lexical, vectors,
                tfidf, p, scope, k);
        after.forEach((step, s) -> floor.merge(step, s, LatencyStats::merge));

        LatencyReport report = new LatencyReport(floor, phases, k, topK, warmUp);
        report.print(System.out);
        if (out != null) {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), report.json());
            System.out.println("written " + out);
        }
        return 0;
    }

    private SteadyStateWarmUp.Result warmUpOverHttp(LatencyRun run, LatencyRun.Call overHttp, Runnable cold,
                                                    java.util.function.Supplier<long[]> counts) throws Exception {
        SteadyStateWarmUp.Round round = n -> run.run("warm-up", overHttp, 1, n, cold, counts).roundTrip()
                .percentile(50);
        if ("auto".equals(httpWarmUp)) {
            return new SteadyStateWarmUp(5000, 250, 0.03, 2, 10_000).run(round);
        }
        int n = Integer.parseInt(httpWarmUp);
        return n == 0 ? new SteadyStateWarmUp.Result(List.of(), 0, false)
                : new SteadyStateWarmUp.Result(List.of(round.p50(n)), n, false);
    }

    /** The dataset's queries, the --queries file, or a heading and the first words of up to 200 chunks. */
    private List<String> queryTexts(BeirDataset set, NoteStore notes) throws java.io.IOException {
        if (queries != null) {
            return Files.readAllLines(queries).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
        }
        if (set != null) {
            return List.copyOf(set.queries().values());
        }
        List<Chunk> chunks = notes.allChunks();
        List<String> out = new ArrayList<>();
        int step = Math.max(1, chunks.size() / 200);
        for (int i = 0; i < chunks.size() && out.size() < 200; i += step) {
            Chunk c = chunks.get(i);
            String words = String.join(" ", java.util.Arrays.stream(c.text().split("\\s+")).limit(8).toList());
            String q = ((c.heading() == null ? "" : c.heading()) + " " + words).strip();
            if (!q.isBlank()) {
                out.add(q);
            }
        }
        return out;
    }

    /** Floor and phases as the printed table and as JSON. */
    record LatencyReport(Map<String, LatencyStats> floor, List<LatencyRun.Phase> phases, int candidates,
                         int topK, SteadyStateWarmUp.Result warmUp) {
        /** timings_ms keys in route order. */
        private static final List<String> STEPS = List.of("parse", "access", "plan", "tfidf", "embedding", "semantic",
                "lexical", "branches", "fusion", "result_access", "selection", "session", "total");
        /** branch, its engine's label, the engine's steps in the floor (summed); the first present row counts. */
        private static final String[][] BRANCHES = {
                {"lexical", "Lucene BM25", EngineFloor.BM25},
                {"lexical", "OpenSearch took", EngineFloor.OPENSEARCH_TOOK},
                {"lexical", "OpenSearch client call", EngineFloor.OPENSEARCH_CALL},
                {"semantic", "embedding + HNSW", EngineFloor.EMBEDDING, EngineFloor.HNSW},
                {"semantic", "embedding + pg execution", EngineFloor.EMBEDDING, EngineFloor.PGVECTOR_EXECUTION},
                {"semantic", "embedding + pgvector call", EngineFloor.EMBEDDING, EngineFloor.PGVECTOR_CALL},
                {"tfidf", "TF-IDF scoring", EngineFloor.TFIDF}};

        void print(java.io.PrintStream o) {
            LatencyRun.Phase inProc = phases.get(0);
            LatencyRun.Phase http1 = phases.get(1);
            o.printf("%nengine floor (the engines' own calls, k = %d)         p50      p95      p99 ms%n", candidates);
            floor.forEach((step, s) -> o.printf("  %-48s %s%n", floorLabel(step), row(s)));
            o.printf("%nroute steps (%s)                  p50      p95      p99 ms%n", inProc.name());
            for (String step : STEPS) {
                if (inProc.steps().containsKey(step)) {
                    o.printf("  %-48s %s%n", step, row(inProc.steps().get(step)));
                }
            }
            o.printf("  %-48s %s%n", "serialise + events (round trip - route)", row(inProc.outside()));
            o.printf("  %-48s %s%n", "round trip in process", row(inProc.roundTrip()));
            o.printf("%nbranch vs its engine (p50, %s)       branch   engine    limit%n", inProc.name());
            for (String[] b : BRANCHES) {
                LatencyStats branch = inProc.steps().get(b[0]);
                double engine = 0;
                boolean measured = true;
                for (int i = 2; i < b.length; i++) {
                    measured &= floor.containsKey(b[i]);
                    engine += p50(floor.get(b[i]));
                }
                if (branch != null && measured) {
                    double limit = 1.5 * engine + 1;
                    o.printf("  %-24s vs %-20s %8.2f %8.2f %8.2f  %s%n", b[0], b[1], branch.percentile(50), engine,
                            limit, branch.percentile(50) <= limit ? "ok" : "OVER");
                }
            }
            o.printf("%nphase                                   p50      p95      p99  HTTP+JSON p50    QPS   cache hits%n");
            for (LatencyRun.Phase ph : phases) {
                o.printf("  %-34s %s   %8.2f %7.1f   %5.1f %%%n", ph.name(), row(ph.roundTrip()),
                        ph.outside().percentile(50), ph.qps(), 100 * ph.cacheHitRate());
            }
            double f = p50(floor.get(EngineFloor.FLOOR));
            LatencyStats selection = inProc.steps().get("selection");
            o.printf("%ntargets (issue 13 item 5):%n");
            check(o, "end-to-end p50 <= 2 x floor (HTTP, 1 client, cold)", http1.roundTrip().percentile(50), 2 * f);
            check(o, "end-to-end p95 <= 25 ms (HTTP, 1 client, cold)", http1.roundTrip().percentile(95), 25);
            check(o, "HTTP + JSON p50 <= 1 ms", http1.outside().percentile(50), 1);
            if (selection != null) {
                check(o, "selection p50 <= 2 ms at top_k " + topK, selection.percentile(50), 2);
            }
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("candidates_per_branch", candidates);
            m.put("top_k", topK);
            m.put("http_warm_up", Map.of("requests", warmUp.requests(), "steady", warmUp.steady(),
                    "round_p50_ms", warmUp.roundP50s()));
            Map<String, Object> f = new LinkedHashMap<>();
            floor.forEach((step, s) -> f.put(step, stats(s)));
            m.put("engine_floor_ms", f);
            List<Object> list = new ArrayList<>();
            for (LatencyRun.Phase ph : phases) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("phase", ph.name());
                p.put("clients", ph.clients());
                p.put("requests", ph.requests());
                p.put("qps", ph.qps());
                p.put("round_trip_ms", stats(ph.roundTrip()));
                p.put("outside_route_ms", stats(ph.outside()));
                Map<String, Object> steps = new LinkedHashMap<>();
                ph.steps().forEach((step, s) -> steps.put(step, stats(s)));
                p.put("route_steps_ms", steps);
                p.put("embedding_cache_hits", ph.cacheHits());
                p.put("embedding_cache_misses", ph.cacheMisses());
                p.put("embedding_cache_hit_rate", ph.cacheHitRate());
                list.add(p);
            }
            m.put("phases", list);
            return m;
        }

        private static void check(java.io.PrintStream o, String what, double value, double limit) {
            o.printf("  %-52s %8.2f vs %8.2f  %s%n", what, value, limit, value <= limit ? "ok" : "MISSED");
        }

        private static String floorLabel(String step) {
            return switch (step) {
                case EngineFloor.EMBEDDING -> "query embedding (model alone)";
                case EngineFloor.BM25 -> "Lucene BM25 (the branch's query, no scope)";
                case EngineFloor.HNSW -> "Lucene HNSW (the branch's k-NN, no scope)";
                case EngineFloor.OPENSEARCH_CALL -> "OpenSearch: the store's search call (scoped)";
                case EngineFloor.OPENSEARCH_TOOK -> "OpenSearch: its took for that call";
                case EngineFloor.PGVECTOR_CALL -> "pgvector: the store's search call (scoped)";
                case EngineFloor.PGVECTOR_EXECUTION -> "pgvector: PostgreSQL execution (EXPLAIN)";
                case EngineFloor.TFIDF -> "TF-IDF scoring (no scope)";
                case EngineFloor.FLOOR -> "floor = embedding + BM25 + HNSW";
                default -> step;
            };
        }

        private static double p50(LatencyStats s) {
            return s == null ? 0 : s.percentile(50);
        }

        private static String row(LatencyStats s) {
            return String.format("%8.2f %8.2f %8.2f", s.percentile(50), s.percentile(95), s.percentile(99));
        }

        private static Map<String, Double> stats(LatencyStats s) {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("mean", s.mean());
            m.put("p50", s.percentile(50));
            m.put("p95", s.percentile(95));
            m.put("p99", s.percentile(99));
            return m;
        }
    }
}
