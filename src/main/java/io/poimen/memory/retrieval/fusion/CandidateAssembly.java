package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The candidate assembly the weighted, RRF and adaptive fusions share: min-max normalise each branch's list, rank
 * from 1 in the branch's order, apply the per-branch threshold, and keep each chunk's branch scores. A chunk whose
 * every branch score is below its threshold is dropped; a chunk kept by one branch only is kept.
 */
final class CandidateAssembly {
    /** What branch b adds for a hit with normalised score {@code normalized} at {@code rank}, weight w. */
    interface Contribution {
        double of(Branch b, double normalized, int rank, double weight);
    }

    private static final MinMaxNormalizer NORMALIZER = new MinMaxNormalizer();

    private CandidateAssembly() {
    }

    /**
     * @param lists each branch's hits, each chunk once ({@link #firstOccurrences}), in the order the branch
     *              scores of a chunk are listed
     * @return chunk id → its branch scores, for the chunks at least one branch passed
     */
    static Map<String, Map<Branch, BranchScore>> collect(Map<Branch, List<Hit>> lists, Map<Branch, Double> weights,
                                                         FusionSettings settings, Contribution contribution) {
        Map<String, Map<Branch, BranchScore>> byChunk = new LinkedHashMap<>();
        Set<String> passed = new HashSet<>();
        lists.forEach((b, hits) -> {
            double w = weights.get(b);
            List<Hit> normalized = NORMALIZER.normalize(hits);
            for (int i = 0; i < hits.size(); i++) {
                double n = normalized.get(i).score();
                boolean above = n >= settings.minNormalized(b);
                double c = above ? contribution.of(b, n, i + 1, w) : 0.0;
                String id = hits.get(i).chunkId();
                byChunk.computeIfAbsent(id, k -> new LinkedHashMap<>())
                        .put(b, new BranchScore(hits.get(i).score(), n, i + 1, w, c));
                if (above) {
                    passed.add(id);
                }
            }
        });
        byChunk.keySet().retainAll(passed);
        return byChunk;
    }

    static double sum(Map<Branch, BranchScore> parts) {
        return parts.values().stream().mapToDouble(BranchScore::contribution).sum();
    }

    /** Best score first, ties by chunk id. */
    static List<FusedCandidate> sorted(List<FusedCandidate> out) {
        out.sort(Comparator.comparingDouble(FusedCandidate::score).reversed().thenComparing(FusedCandidate::chunkId));
        return out;
    }

    /** The hits without nulls, each chunk at its first place. */
    static List<Hit> firstOccurrences(List<Hit> hits) {
        Set<String> seen = new HashSet<>();
        List<Hit> out = new ArrayList<>(hits.size());
        for (Hit h : hits) {
            if (h != null && h.chunkId() != null && seen.add(h.chunkId())) {
                out.add(h);
            }
        }
        return out;
    }
}
