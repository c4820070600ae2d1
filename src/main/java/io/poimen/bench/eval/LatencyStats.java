package io.poimen.bench.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collected latencies in milliseconds: mean and percentiles (nearest rank). */
public final class LatencyStats {
    private final List<Double> values = new ArrayList<>();

    public void add(double ms) {
        values.add(ms);
    }

    /** Both sets of values in one (a new object). */
    public static LatencyStats merge(LatencyStats a, LatencyStats b) {
        LatencyStats m = new LatencyStats();
        m.values.addAll(a.values);
        m.values.addAll(b.values);
        return m;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public double mean() {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    public double percentile(double p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
