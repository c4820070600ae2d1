package io.poimen.memory.cluster;

import io.poimen.memory.testsupport.TestPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Failover time of the writer election: three {@link LeaseNode} JVMs on one PostgreSQL database; the leader is
 * killed ({@code destroyForcibly}, no lease handed over) {@code --kills} times (default 10), a new node replacing
 * it each time; prints the time from each kill to the next node's {@code LEADER} line, p50 and max.
 *
 * <pre>POIMEN_TEST_PG_URL=jdbc:postgresql://... java -cp "$(cat target/test-classpath)" \
 *     io.poimen.memory.cluster.LeaseFailoverBench 10</pre>
 */
public final class LeaseFailoverBench {
    private record Event(Process node, long at) {
    }

    private LeaseFailoverBench() {
    }

    public static void main(String[] args) throws Exception {
        int kills = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        DataSource migrated = TestPostgres.freshDatabase("lease_bench");
        String url = ((com.zaxxer.hikari.HikariDataSource) migrated).getJdbcUrl();
        BlockingQueue<Event> leaders = new LinkedBlockingQueue<>();
        List<Process> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(start(url, leaders));
        }
        List<Long> failovers = new ArrayList<>();
        try {
            Event leader = leaders.poll(60, TimeUnit.SECONDS);
            for (int k = 0; k < kills; k++) {
                if (leader == null) {
                    throw new IllegalStateException("no leader");
                }
                long killed = System.currentTimeMillis();
                leader.node().destroyForcibly().waitFor();
                nodes.remove(leader.node());
                nodes.add(start(url, leaders));
                Event next = leaders.poll(60, TimeUnit.SECONDS);
                while (next != null && next.node() == leader.node()) {
                    next = leaders.poll(60, TimeUnit.SECONDS);
                }
                if (next == null) {
                    throw new IllegalStateException("no new leader within 60 s of kill " + (k + 1));
                }
                failovers.add(next.at() - killed);
                System.out.printf("kill %d: new leader after %d ms%n", k + 1, next.at() - killed);
                leader = next;
                Thread.sleep((long) (Math.random() * 1000)); // kills land anywhere in the renew period
            }
        } finally {
            nodes.forEach(Process::destroyForcibly);
        }
        List<Long> sorted = new ArrayList<>(failovers);
        Collections.sort(sorted);
        System.out.printf("failover over %d kills (lease 5 s, renew 1 s): p50 %d ms, max %d ms, all %s%n",
                sorted.size(), sorted.get((sorted.size() - 1) / 2), sorted.get(sorted.size() - 1), failovers);
        System.exit(0);
    }

    private static Process start(String url, BlockingQueue<Event> leaders) throws IOException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", System.getProperty("java.class.path"), LeaseNode.class.getName(), url)
                .redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = p.inputReader()) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (System.getenv("LEASE_BENCH_VERBOSE") != null) {
                        System.out.println("[node " + p.pid() + "] " + line);
                    }
                    if (line.startsWith("LEADER ")) {
                        leaders.add(new Event(p, Long.parseLong(line.substring(7).trim())));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the node was killed
            }
        });
        reader.setDaemon(true);
        reader.start();
        return p;
    }
}
