package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.Branch;
import io.poimen.memory.retrieval.BranchResult;
import java.util.ArrayList;
import java.util.Comparator;
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
    private final MinMaxNormalizer normalizer = new MinMaxNormalizer();

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
        Map<String, Map<Branch, BranchScore>> byChunk = new LinkedHashMap<>();
        Set<String> passed = new HashSet<>();
        for (BranchResult r : answered) {
            Branch b = r.branch();
            List<Hit> hits = firstOccurrences(r.hits());
            List<Hit> normalized = normalizer.normalize(hits);
            for (int i = 0; i < hits.size(); i++) {
                double n = normalized.get(i).score();
                boolean above = n >= settings.minNormalized(b);
                double w = weights.get(b);
                double c = above ? contribution(n, i + 1, w, settings) : 0.0;
                String id = hits.get(i).chunkId();
                byChunk.computeIfAbsent(id, k -> new LinkedHashMap<>())
                        .put(b, new BranchScore(hits.get(i).score(), n, i + 1, w, c));
                if (above) {
                    passed.add(id);
                }
            }
        }
        List<FusedCandidate> out = new ArrayList<>();
        byChunk.forEach((id, parts) -> {
            if (passed.contains(id)) {
                double sum = parts.values().stream().mapToDouble(BranchScore::contribution).sum();
                out.add(new FusedCandidate(id, finish(sum), parts, name()));
            }
        });
        out.sort(Comparator.comparingDouble(FusedCandidate::score).reversed()
                .thenComparing(FusedCandidate::chunkId));
        return out;
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

    private static List<Hit> firstOccurrences(List<Hit> hits) {
        Set<String> seen = new HashSet<>();
        List<Hit> out = new ArrayList<>(hits.size());
        for (Hit h : hits) {
            if (h != null && h.chunkId() != null && seen.add(h.chunkId())) {
                out.add(h);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return name();
    }
}
