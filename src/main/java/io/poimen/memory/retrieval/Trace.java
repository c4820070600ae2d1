package io.poimen.memory.retrieval;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a query recorded on its way, carried from step to step: each step's own time (step → milliseconds, to the
 * microsecond: the steps of a fast route take well under one millisecond) and the parts of the answer served
 * without their usual source ({@code degraded}: branch key or part → reason). Immutable: a step adds to a copy.
 *
 * @param startedNanos when the route took the query ({@link System#nanoTime()}): the origin of {@code total}
 */
public record Trace(long startedNanos, Map<String, Double> timingsMs, Map<String, String> degraded) {
    public Trace {
        timingsMs = java.util.Collections.unmodifiableMap(new TreeMap<>(timingsMs));
        degraded = java.util.Collections.unmodifiableMap(new TreeMap<>(degraded));
    }

    public static Trace startedAt(long nanos) {
        return new Trace(nanos, Map.of(), Map.of());
    }

    /** {@code step} took the time since {@code startNanos}. */
    public Trace timed(String step, long startNanos) {
        return withMs(step, millisSince(startNanos));
    }

    public Trace withMs(String step, double ms) {
        Map<String, Double> t = new TreeMap<>(timingsMs);
        t.put(step, ms);
        return new Trace(startedNanos, t, degraded);
    }

    /** The route's time until now as {@code total}. */
    public Trace totalled() {
        return timed("total", startedNanos);
    }

    /** {@code what}: a branch key, or another part of the answer that was served without its usual source. */
    public Trace degrade(String what, String reason) {
        Map<String, String> d = new TreeMap<>(degraded);
        d.put(what, reason);
        return new Trace(startedNanos, timingsMs, d);
    }

    /** Milliseconds since {@code nanos}, rounded to the microsecond. */
    public static double millisSince(long nanos) {
        return millis(System.nanoTime() - nanos);
    }

    /** {@code nanos} in milliseconds, rounded to the microsecond. */
    public static double millis(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }
}
