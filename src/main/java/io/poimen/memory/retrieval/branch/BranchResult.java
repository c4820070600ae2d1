package io.poimen.memory.retrieval.branch;

import io.poimen.memory.index.Hit;
import java.util.List;
import java.util.Objects;

/**
 * What one branch answered.
 *
 * @param branch the branch
 * @param hits   candidates in the branch's rank order (best first); empty when the branch failed
 * @param tookMs wall time of the branch in milliseconds (fractional)
 * @param error  null when the branch answered, else a short reason (timeout, engine down); such a branch is
 *               reported as degraded and takes no part in fusion
 */
public record BranchResult(Branch branch, List<Hit> hits, double tookMs, String error) {
    public BranchResult {
        Objects.requireNonNull(branch, "branch");
        hits = hits == null ? List.of() : List.copyOf(hits);
    }

    public static BranchResult ok(Branch branch, List<Hit> hits, double tookMs) {
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
