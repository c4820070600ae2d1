package io.poimen.memory.retrieval.fusion;

/**
 * Weighted linear fusion of min-max normalised scores:
 * <pre>  score(d) = Σ_b w'_b · n_b(d)</pre>
 * over the branches b that answered and returned d above their threshold, w'_b renormalised to sum to 1
 * ({@link FusionSettings}). Scores lie in [0, 1]; a chunk only one branch found can reach at most w'_b.
 */
public class WeightedFusion extends BranchContributionFusion {
    public static final String NAME = "weighted";

    @Override
    protected double contribution(double normalized, int rank, double weight, FusionSettings settings) {
        return weight * normalized;
    }

    @Override
    protected double finish(double sum) {
        return Math.min(1.0, sum);
    }

    @Override
    public String name() {
        return NAME;
    }
}
