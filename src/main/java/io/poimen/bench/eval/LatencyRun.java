package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends queries through one way into the route ({@code direct:query} in process, or HTTP) from 1 or N clients
 * and collects, per request, the round trip and the route's own step times ({@code timings_ms} of the answer).
 */
public final class LatencyRun {

    /** One way of sending a JSON query body and getting the JSON answer. */
    @FunctionalInterface
    public interface Call {
        byte[] send(byte[] body) throws Exception;
    }

    /** What a phase measured. {@code outside}: round trip − the route's total, per request. */
    public record Phase(String name, int clients, int requests, double seconds, LatencyStats roundTrip,
                        LatencyStats outside, Map<String, LatencyStats> steps, long cacheHits, long cacheMisses) {
        public double qps() {
            return seconds > 0 ? requests / seconds : 0;
        }

        public double cacheHitRate() {
            long n = cacheHits + cacheMisses;
            return n == 0 ? 0 : (double) cacheHits / n;
        }
    }

    private final ObjectMapper json = new ObjectMapper();
    private final List<byte[]> bodies;

    /** @param queries the texts to send, cycled; each becomes {@code {project, query, top_k, search_method}} */
    public LatencyRun(List<String> queries, String project, int topK, String method) {
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("no queries to send");
        }
        List<byte[]> b = new ArrayList<>();
        for (String q : queries) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("project", project);
            body.put("query", q);
            body.put("top_k", topK);
            body.put("search_method", method);
            try {
                b.add(json.writeValueAsBytes(body));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        this.bodies = List.copyOf(b);
    }

    /**
     * Sends {@code requests} queries from {@code clients} threads. {@code beforeEach} runs before every request
     * (e.g. empties the query-embedding cache for a cold measurement); {@code cacheCounts} reads hits and misses.
     */
    public Phase run(String name, Call call, int clients, int requests, Runnable beforeEach,
                     java.util.function.Supplier<long[]> cacheCounts) throws Exception {
        List<double[]> trips = Collections.synchronizedList(new ArrayList<>());
        List<JsonNode> timings = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        long[] before = cacheCounts.get();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long t0 = System.nanoTime();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                done.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                        beforeEach.run();
                        byte[] body = bodies.get(i % bodies.size());
                        long s = System.nanoTime();
                        byte[] answer = call.send(body);
                        double ms = (System.nanoTime() - s) / 1e6;
                        JsonNode t = json.readTree(answer).path("timings_ms");
                        if (!t.has("total")) {
                            throw new IllegalStateException("the route answered without timings: "
                                    + new String(answer, java.nio.charset.StandardCharsets.UTF_8));
                        }
                        trips.add(new double[] {ms});
                        timings.add(t);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long[] after = cacheCounts.get();
        LatencyStats roundTrip = new LatencyStats();
        LatencyStats outside = new LatencyStats();
        Map<String, LatencyStats> steps = new LinkedHashMap<>();
        for (int i = 0; i < trips.size(); i++) {
            double ms = trips.get(i)[0];
            JsonNode t = timings.get(i);
            roundTrip.add(ms);
            outside.add(ms - t.path("total").asDouble() - t.path("parse").asDouble());
            t.fieldNames().forEachRemaining(step ->
                    steps.computeIfAbsent(step, k -> new LatencyStats()).add(t.path(step).asDouble()));
        }
        return new Phase(name, clients, trips.size(), seconds, roundTrip, outside, steps, after[0] - before[0],
                after[1] - before[1]);
    }
}
