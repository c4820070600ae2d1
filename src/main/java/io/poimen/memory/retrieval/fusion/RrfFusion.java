package io.poimen.memory.retrieval.fusion;

/**
 * Weighted reciprocal rank fusion (Cormack et al. 2009):
 * <pre>  score(d) = Σ_b w'_b / (k + rank_b(d))</pre>
 * ranks from 1 in each branch's order, k = {@link FusionSettings#rrfK()} (60 by default), w'_b the
 * renormalised branch weight. Only ranks count, so no engine's score scale can dominate; the normalised score
 * is still computed for the per-branch threshold and the breakdown.
 */
public class RrfFusion extends BranchContributionFusion {
    public static final String NAME = "rrf";

    @Override
    protected double contribution(double normalized, int rank, double weight, FusionSettings settings) {
        return weight / (settings.rrfK() + rank);
    }

    @Override
    public String name() {
        return NAME;
    }
}
