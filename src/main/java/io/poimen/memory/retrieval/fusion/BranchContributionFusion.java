package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part every fusion shares: keep the branches that answered, renormalise their weights, normalise each
 * branch with {@link MinMaxNormalizer}, rank from 1 in the branch's order (a chunk listed twice keeps its first
 * place), apply the per-branch threshold, and sum the contributions. Subclasses give one branch's contribution.
 * A chunk whose every branch score is below its threshold is dropped; a chunk kept by one branch only is kept.
 */
abstract class BranchContributionFusion implements FusionMethod {
    /** What branch b adds for a hit with normalised score {@code normalized} at {@code rank}, weight w'_b. */
    protected abstract double contribution(double normalized, int rank, double weight, FusionSettings settings);

    /** Hook on the summed score (weighted fusion clamps rounding noise into [0, 1]). */
    protected double finish(double sum) {
        return sum;
    }

    @Override
    public final List<FusedCandidate> fuse(List<BranchResult> results, FusionSettings settings) {
        if (results == null || settings == null) {
            throw new IllegalArgumentException("results and settings are required");
        }
        List<BranchResult> answered = answered(results);
        Map<Branch, Double> weights = renormalisedWeights(answered, settings);
        Map<Branch, List<Hit>> lists = new LinkedHashMap<>();
        answered.forEach(r -> lists.put(r.branch(), CandidateAssembly.firstOccurrences(r.hits())));
        List<FusedCandidate> out = new ArrayList<>();
        CandidateAssembly.collect(lists, weights, settings, (b, n, rank, w) -> contribution(n, rank, w, settings))
                .forEach((id, parts) -> out.add(new FusedCandidate(id, finish(CandidateAssembly.sum(parts)), parts,
                        name())));
        return CandidateAssembly.sorted(out);
    }

    private static List<BranchResult> answered(List<BranchResult> results) {
        Set<Branch> seen = new HashSet<>();
        List<BranchResult> out = new ArrayList<>();
        for (BranchResult r : results) {
            if (!seen.add(r.branch())) {
                throw new IllegalArgumentException("branch " + r.branch().key() + " answered twice");
            }
            if (r.answered()) {
                out.add(r);
            }
        }
        return out;
    }

    /** w'_b = w_b / Σ answered w_a; equal shares when the answered weights are all 0. */
    static Map<Branch, Double> renormalisedWeights(List<BranchResult> answered, FusionSettings s) {
        double total = answered.stream().mapToDouble(r -> s.weight(r.branch())).sum();
        Map<Branch, Double> out = new LinkedHashMap<>();
        for (BranchResult r : answered) {
            out.put(r.branch(), total > 0 ? s.weight(r.branch()) / total : 1.0 / answered.size());
        }
        return out;
    }

    @Override
    public String toString() {
        return name();
    }
}
