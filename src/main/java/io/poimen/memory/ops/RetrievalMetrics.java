package io.poimen.memory.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Prometheus meters of the query, access and ingest flows (scraped at {@code /actuator/prometheus}).
 *
 * <ul>
 *   <li>{@code poimen.query.branch} timer, tags {@code branch}, {@code outcome} (ok|failed), with a percentile
 *       histogram: latency of each retrieval branch.</li>
 *   <li>{@code poimen.query.fusion} timer: normalisation and fusion time.</li>
 *   <li>{@code poimen.query.degraded} counter, tag {@code branch}: queries answered without that branch.</li>
 *   <li>{@code poimen.rbac.decisions} counter, tags {@code action}, {@code decision} (allow|deny),
 *       {@code reason} (the engine's reason code, e.g. {@code in_allowed_group}, {@code not_in_allowed_groups}).</li>
 *   <li>{@code poimen.ingest.notes}, {@code poimen.ingest.chunks} counters, {@code poimen.ingest.duration}
 *       timer and {@code poimen.ingest.throughput} gauge (chunks per second of the last run).</li>
 *   <li>{@code poimen.ingest.lag} gauge in seconds: how long the index has been behind the vault, that is
 *       now − the first vault change not yet covered by a finished ingest; 0 when the index is current. On the
 *       writer, a change starts when its sync is picked up (the webhook's request taken, or the fallback poll)
 *       and the pull brought something to ingest.</li>
 *   <li>{@code poimen.ingest.synced} timer: for each ingest that covered such a change, the time from the
 *       change picked up to indexed.</li>
 * </ul>
 */
@Component
public class RetrievalMetrics {
    private final MeterRegistry registry;
    private final Clock clock;
    private final Timer fusion;
    private final AtomicReference<Instant> pendingSince = new AtomicReference<>();
    private volatile double lastThroughput;

    @Autowired
    public RetrievalMetrics(MeterRegistry registry) {
        this(registry, Clock.systemUTC());
    }

    RetrievalMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        this.fusion = Timer.builder("poimen.query.fusion")
                .description("Normalisation and fusion of the branch answers")
                .publishPercentileHistogram()
                .register(registry);
        Gauge.builder("poimen.ingest.lag", this, RetrievalMetrics::reindexLagSeconds)
                .description("Seconds the index has been behind the vault (0 = current)")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("poimen.ingest.throughput", this, m -> m.lastThroughput)
                .description("Chunks per second of the last ingest run")
                .register(registry);
    }

    /**
     * Records one fused query from its context's figures: each expected branch's time ({@code timingsMs} by
     * branch key), the fusion time ({@code timingsMs.fusion}) and every branch named in {@code degraded}.
     */
    public void query(List<String> expected, Map<String, Double> timingsMs, Set<String> degraded) {
        for (String key : expected) {
            Double ms = timingsMs.get(key);
            if (ms != null) {
                branch(key, !degraded.contains(key), nanos(ms));
            }
        }
        Double fusionMs = timingsMs.get("fusion");
        if (fusionMs != null) {
            fusion.record(nanos(fusionMs));
        }
        for (String b : degraded) {
            degraded(b);
        }
    }

    private static Duration nanos(double millis) {
        return Duration.ofNanos(Math.round(millis * 1e6));
    }

    public void branch(String branch, boolean ok, Duration took) {
        Timer.builder("poimen.query.branch")
                .description("Latency of one retrieval branch")
                .tags("branch", branch, "outcome", ok ? "ok" : "failed")
                .publishPercentileHistogram()
                .register(registry)
                .record(took);
    }

    public void degraded(String branch) {
        Counter.builder("poimen.query.degraded")
                .description("Queries answered without this branch (failed or timed out)")
                .tag("branch", branch)
                .register(registry)
                .increment();
    }

    /** One access decision; {@code action} is read, write or admin. */
    public void accessDecision(String action, boolean allowed) {
        accessDecision(action, allowed, allowed ? "allowed" : "denied");
    }

    /**
     * One access decision with its reason code: the leading snake_case word of the engine's reason (e.g.
     * {@code not_in_allowed_groups}), so the tag stays a small fixed set whatever paths the reason names.
     */
    public void accessDecision(String action, boolean allowed, String reason) {
        Counter.builder("poimen.rbac.decisions")
                .description("Access decisions by action, outcome and reason")
                .tags("action", action, "decision", allowed ? "allow" : "deny", "reason", reasonCode(reason))
                .register(registry)
                .increment();
    }

    static String reasonCode(String reason) {
        if (reason == null) {
            return "none";
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^[a-z_]+").matcher(reason);
        return m.find() ? m.group() : "other";
    }

    /** The vault moved (a webhook or a pull brought new commits): the index lags from now until an ingest ends. */
    public void vaultChanged() {
        vaultChanged(clock.instant());
    }

    /**
     * The writer is about to ingest what a sync pulled; the lag runs from when the sync was picked up (the
     * exchange's creation: the cluster-requests take of a webhook's request, or the fallback poll).
     */
    public void changePickedUp(org.apache.camel.Exchange exchange) {
        long created = exchange.getClock().getCreated();
        vaultChanged(created > 0 ? Instant.ofEpochMilli(created) : clock.instant());
    }

    private void vaultChanged(Instant since) {
        pendingSince.accumulateAndGet(since, (p, s) -> p == null || s.isBefore(p) ? s : p);
    }

    /**
     * One finished ingest run ({@code changed} notes (re)indexed, {@code chunks} written in {@code seconds}).
     * Clears the lag if the run started after the first pending change.
     */
    public void ingested(int changed, int chunks, double seconds, double chunksPerSecond) {
        Counter.builder("poimen.ingest.notes").description("Notes (re)indexed").register(registry)
                .increment(changed);
        Counter.builder("poimen.ingest.chunks").description("Chunks embedded and written").register(registry)
                .increment(chunks);
        Timer.builder("poimen.ingest.duration").description("Wall time of ingest runs").register(registry)
                .record(Duration.ofNanos((long) (seconds * 1e9)));
        lastThroughput = chunksPerSecond;
        Instant now = clock.instant();
        Instant started = now.minusNanos((long) (seconds * 1e9));
        Instant covered = pendingSince.getAndUpdate(p -> p != null && !p.isAfter(started) ? null : p);
        if (covered != null && !covered.isAfter(started)) {
            Timer.builder("poimen.ingest.synced").description("From a vault change picked up to indexed")
                    .register(registry).record(Duration.between(covered, now));
        }
    }

    double reindexLagSeconds() {
        Instant p = pendingSince.get();
        return p == null ? 0 : Math.max(0, Duration.between(p, clock.instant()).toMillis() / 1000.0);
    }

    /** Current per-branch counts of degraded queries, for the load harness and tests. */
    public Map<String, Double> degradedCounts() {
        Map<String, Double> out = new java.util.TreeMap<>();
        registry.find("poimen.query.degraded").counters()
                .forEach(c -> out.put(c.getId().getTag("branch"), c.count()));
        return out;
    }
}
