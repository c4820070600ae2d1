package io.poimen.bench.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * Warms a path up until its latency stops falling: at least {@code minRequests} requests, in rounds, each
 * round's p50 against the best p50 so far, done once {@code stableRounds} rounds in a row improve on it by less
 * than {@code tolerance} (or at {@code maxRequests}). The HTTP stack and the route's per-request code run once a
 * request, so a few dozen requests leave them in the JIT's first tiers while the engines' tight loops (the floor
 * they are set against) are already compiled; HotSpot's last tier wants about 5,000 invocations of a method
 * (Tier4InvocationThreshold), and a round that is slower because the machine is busy must not end the warm-up
 * before that, hence the minimum.
 */
public final class SteadyStateWarmUp {

    /** Sends {@code requests} requests and answers their p50 in ms. */
    @FunctionalInterface
    public interface Round {
        double p50(int requests) throws Exception;
    }

    /** The p50 of every round, in order, and the requests sent. */
    public record Result(List<Double> roundP50s, int requests, boolean steady) {
    }

    private final int minRequests;
    private final int roundSize;
    private final double tolerance;
    private final int stableRounds;
    private final int maxRequests;

    /**
     * @param minRequests  requests sent whatever the p50s do
     * @param roundSize    requests per round
     * @param tolerance    a round counts as no better when its p50 is above (1 − tolerance) × the best so far
     * @param stableRounds rounds in a row that must be no better
     * @param maxRequests  stop here even if the p50 still falls
     */
    public SteadyStateWarmUp(int minRequests, int roundSize, double tolerance, int stableRounds, int maxRequests) {
        if (roundSize < 1 || !(tolerance >= 0 && tolerance < 1) || stableRounds < 1 || maxRequests < roundSize
                || minRequests < 0 || minRequests > maxRequests) {
            throw new IllegalArgumentException("round size >= 1, tolerance in [0, 1), stable rounds >= 1 and "
                    + "0 <= min requests <= max requests >= round size, got " + minRequests + ", " + roundSize
                    + ", " + tolerance + ", " + stableRounds + ", " + maxRequests);
        }
        this.minRequests = minRequests;
        this.roundSize = roundSize;
        this.tolerance = tolerance;
        this.stableRounds = stableRounds;
        this.maxRequests = maxRequests;
    }

    public Result run(Round round) throws Exception {
        List<Double> p50s = new ArrayList<>();
        double best = Double.POSITIVE_INFINITY;
        int noBetter = 0;
        int sent = 0;
        while (sent + roundSize <= maxRequests) {
            double p50 = round.p50(roundSize);
            sent += roundSize;
            p50s.add(p50);
            if (p50 < best * (1 - tolerance)) {
                noBetter = 0;
            } else if (++noBetter >= stableRounds && sent >= minRequests) {
                return new Result(p50s, sent, true);
            }
            best = Math.min(best, p50);
        }
        return new Result(p50s, sent, false);
    }
}
