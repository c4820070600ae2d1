package io.poimen.memory.ops.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Load and fault harness, loopback only and bounded: {@code clients} concurrent clients send
 * {@code POST /memory/query} (titles of the example vault's notes, each against its own project) for
 * {@code seconds}, while {@code POST /memory/admin/reindex} runs every {@code reindexEvery} seconds and the
 * {@code --fault AT:COMMAND} shell commands run at their offsets (stop a store, break a policy file...).
 *
 * <p>Prints requests, responses by status, p50/p95/p99 latency, the branches named in {@code degraded} and
 * how often, and "lost": requests that got no HTTP response at all (connection error or timeout).
 *
 * <pre>
 * mvn -o -q test-compile
 * java -cp "target/test-classes:target/classes:$(cat target/cp.txt)" io.poimen.memory.ops.load.LoadHarness \
 *   --url http://127.0.0.1:8091 --clients 16 --seconds 20 --reindex-every 8 --vault examples/vault
 * </pre>
 * ({@code scripts/load-test.sh} does this.)
 */
public final class LoadHarness {
    static final int MAX_CLIENTS = 64;
    static final int MAX_SECONDS = 600;

    record Fault(int atSecond, String command) {
    }

    record Sample(long micros, int status, List<String> degraded) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new TreeMap<>();
        List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            if (args[i].equals("--fault")) {
                String[] f = args[i + 1].split(":", 2);
                faults.add(new Fault(Integer.parseInt(f[0]), f[1]));
            } else {
                opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
            }
        }
        URI base = URI.create(opts.getOrDefault("url", "http://127.0.0.1:8080"));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "16"));
        int seconds = Integer.parseInt(opts.getOrDefault("seconds", "20"));
        int reindexEvery = Integer.parseInt(opts.getOrDefault("reindex-every", "8"));
        String token = System.getenv("MEM_API_TOKEN");
        requireLoopback(base);
        if (clients < 1 || clients > MAX_CLIENTS || seconds < 1 || seconds > MAX_SECONDS) {
            throw new IllegalArgumentException("clients 1.." + MAX_CLIENTS + ", seconds 1.." + MAX_SECONDS);
        }
        List<String[]> queries = queries(Path.of(opts.getOrDefault("vault", "examples/vault")));
        new LoadHarness(base, token).run(clients, seconds, reindexEvery, queries, faults);
    }

    private final URI base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();

    LoadHarness(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    void run(int clients, int seconds, int reindexEvery, List<String[]> queries, List<Fault> faults)
            throws InterruptedException {
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
        AtomicLong lost = new AtomicLong();
        Map<String, AtomicLong> lostReasons = new ConcurrentHashMap<>();
        List<String> reindexes = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients + 2);
        for (int c = 0; c < clients; c++) {
            int id = c;
            pool.submit(() -> {
                int n = id;
                while (System.nanoTime() < end) {
                    String[] q = queries.get(n++ % queries.size());
                    long t0 = System.nanoTime();
                    try {
                        String body = json.writeValueAsString(Map.of("project", q[0], "query", q[1]));
                        HttpResponse<String> r = http.send(post("/memory/query", body, Duration.ofSeconds(30)),
                                HttpResponse.BodyHandlers.ofString());
                        samples.add(new Sample((System.nanoTime() - t0) / 1000, r.statusCode(), degraded(r)));
                    } catch (IOException e) {
                        lost.incrementAndGet();
                        lostReasons.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            });
        }
        pool.submit(() -> {
            while (System.nanoTime() < end) {
                long t0 = System.nanoTime();
                try {
                    HttpResponse<String> r = http.send(post("/memory/admin/reindex", "", Duration.ofSeconds(120)),
                            HttpResponse.BodyHandlers.ofString());
                    reindexes.add(r.statusCode() + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                } catch (IOException e) {
                    reindexes.add("lost: " + e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                sleepUntil(Math.min(end, t0 + TimeUnit.SECONDS.toNanos(reindexEvery)));
            }
        });
        pool.submit(() -> {
            for (Fault f : faults) {
                sleepUntil(start + TimeUnit.SECONDS.toNanos(f.atSecond()));
                System.out.printf("[%3ds] fault: %s -> exit %d%n", f.atSecond(), f.command(), shell(f.command()));
            }
        });
        pool.shutdown();
        pool.awaitTermination(seconds + 150L, TimeUnit.SECONDS);
        pool.shutdownNow();
        report(clients, seconds, samples, lost.get(), lostReasons, reindexes);
    }

    private HttpRequest post(String path, String body, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null && !token.isBlank()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b.build();
    }

    private List<String> degraded(HttpResponse<String> r) {
        if (r.statusCode() != 200) {
            return List.of();
        }
        try {
            List<String> out = new ArrayList<>();
            json.readTree(r.body()).path("degraded").forEach(n -> out.add(n.asText()));
            return out;
        } catch (IOException e) {
            return List.of("unparseable-response");
        }
    }

    static void report(int clients, int seconds, Iterable<Sample> samples, long lost, Map<String, AtomicLong> lostReasons,
                       List<String> reindexes) {
        List<Long> micros = new ArrayList<>();
        Map<Integer, Long> byStatus = new TreeMap<>();
        Map<String, Long> degraded = new TreeMap<>();
        long degradedQueries = 0;
        for (Sample s : samples) {
            micros.add(s.micros());
            byStatus.merge(s.status(), 1L, Long::sum);
            s.degraded().forEach(d -> degraded.merge(d, 1L, Long::sum));
            degradedQueries += s.degraded().isEmpty() ? 0 : 1;
        }
        micros.sort(null);
        long requests = micros.size() + lost;
        long fiveXx = byStatus.entrySet().stream().filter(e -> e.getKey() >= 500).mapToLong(Map.Entry::getValue).sum();
        System.out.printf("clients %d, %d s%n", clients, seconds);
        System.out.printf("requests %d (%.1f/s), responses by status %s, 5xx %d%n", requests,
                requests / (double) seconds, byStatus, fiveXx);
        System.out.printf("latency ms: p50 %.1f  p95 %.1f  p99 %.1f  max %.1f%n", pct(micros, 50), pct(micros, 95),
                pct(micros, 99), micros.isEmpty() ? 0 : micros.get(micros.size() - 1) / 1000.0);
        System.out.printf("degraded queries %d, by branch %s%n", degradedQueries, degraded);
        System.out.printf("lost (no response) %d %s%n", lost, lostReasons);
        System.out.printf("reindex runs %d: %s%n", reindexes.size(), reindexes);
    }

    /** Nearest-rank percentile, in milliseconds. */
    static double pct(List<Long> sortedMicros, int p) {
        if (sortedMicros.isEmpty()) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sortedMicros.size());
        return sortedMicros.get(Math.max(0, rank - 1)) / 1000.0;
    }

    /** (project, query) pairs: the first heading of every note, asked in the note's own project. */
    static List<String[]> queries(Path vault) throws IOException {
        List<String[]> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(vault)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                String rel = vault.relativize(f).toString().replace('\\', '/');
                String project = rel.startsWith("projects/") ? rel.split("/")[1] : "poimen";
                Files.readAllLines(f).stream().filter(l -> l.startsWith("# ")).findFirst()
                        .ifPresent(h -> out.add(new String[] {project, h.substring(2).trim()}));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no note with a # heading under " + vault);
        }
        return out;
    }

    static void requireLoopback(URI base) throws IOException {
        if (!InetAddress.getByName(base.getHost()).isLoopbackAddress()) {
            throw new IllegalArgumentException("loopback only: " + base.getHost() + " is not a loopback address");
        }
    }

    private static int shell(String command) {
        try {
            Process p = new ProcessBuilder("bash", "-c", command).inheritIO().start();
            return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException e) {
            return -2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -3;
        }
    }

    private static void sleepUntil(long nanoTime) {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
