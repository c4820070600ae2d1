package io.poimen.memory.retrieval.branch;

import io.poimen.memory.index.Hit;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one branch answered.
 *
 * @param branch the branch
 * @param hits   candidates in the branch's rank order (best first); empty when the branch failed
 * @param tookMs wall time of the branch in milliseconds (fractional)
 * @param error  null when the branch answered, else a short reason (timeout, engine down); such a branch is
 *               reported as degraded and takes no part in fusion
 * @param stepsMs the times of steps inside the branch worth their own {@code timings_ms} entry (the semantic
 *               branch's {@code embedding}), step → milliseconds
 */
public record BranchResult(Branch branch, List<Hit> hits, double tookMs, String error, Map<String, Double> stepsMs) {
    public BranchResult {
        Objects.requireNonNull(branch, "branch");
        hits = hits == null ? List.of() : List.copyOf(hits);
        stepsMs = stepsMs == null ? Map.of() : Map.copyOf(stepsMs);
    }

    public BranchResult(Branch branch, List<Hit> hits, double tookMs, String error) {
        this(branch, hits, tookMs, error, Map.of());
    }

    /** The same answer with the time of a step inside the branch. */
    public BranchResult withStep(String step, double ms) {
        Map<String, Double> steps = new java.util.TreeMap<>(stepsMs);
        steps.put(step, ms);
        return new BranchResult(branch, hits, tookMs, error, steps);
    }

    /**
     * A branch's hits; a list holding a score that is not a finite number (a cosine against a zero vector is NaN)
     * answers as failed, naming the chunk: the query degrades by that branch instead of failing in the fusion.
     */
    public static BranchResult ok(Branch branch, List<Hit> hits, double tookMs) {
        for (Hit h : hits == null ? List.<Hit>of() : hits) {
            if (!Double.isFinite(h.score())) {
                return failed(branch, "score of " + h.chunkId() + " is not a finite number: " + h.score(), tookMs);
            }
        }
        return new BranchResult(branch, hits, tookMs, null);
    }

    public static BranchResult failed(Branch branch, String error, double tookMs) {
        return new BranchResult(branch, List.of(), tookMs, error == null || error.isBlank() ? "failed" : error);
    }

    /** True when the branch answered (possibly with no hits). */
    public boolean answered() {
        return error == null;
    }
}
