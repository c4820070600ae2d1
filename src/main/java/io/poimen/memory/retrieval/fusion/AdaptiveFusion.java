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
import java.util.TreeMap;

/**
 * Query-adaptive fusion, the hub's default: each branch's weight is chosen per query from what the branches
 * returned ({@link AdaptiveWeights}: the spread of the cosines, the configured bonuses of the lexical branches,
 * and a gate on how far each branch's top agrees with another branch's), then
 * <pre>  score(d) = Σ_b w_b · n_b(d)</pre>
 * with n_b the min-max normalised score (0 when b did not return d) and per-branch thresholds as in
 * {@link BranchContributionFusion}. When every branch agrees with another, this ranks as the calibrated fusion
 * does (cosine plus bounded bonuses); a branch whose top agrees with no other loses its say, so an embedding
 * model that does not know the vault's language no longer buries the BM25 answer. Without an answering
 * semantic branch (lexical routes, semantic branch down) this is the {@link WeightedFusion}, as for calibrated.
 *
 * <p>The weights chosen, and why, are in every candidate ({@link FusedCandidate#weights()},
 * {@link FusedCandidate#reason()}). Parameters were chosen leave-one-set-out on shared/bench
 * (docs/retrieval.md).
 */
public class AdaptiveFusion implements FusionMethod {
    public static final String NAME = "adaptive";

    /**
     * The agreement gate: a branch whose best overlap with another branch is at least {@code fullRatio} times
     * the best overlap between two other branches keeps its whole weight; below, the weight falls as
     * (ratio / fullRatio)^power.
     */
    public record Gate(double fullRatio, double power) {
        public static final Gate DEFAULTS = new Gate(0.4, 2);

        public Gate {
            if (!(fullRatio > 0 && fullRatio <= 1) || !(power >= 0 && power <= 10)) {
                throw new IllegalArgumentException("adaptive full_ratio must be in (0, 1] and power in [0, 10], got "
                        + fullRatio + " and " + power);
            }
        }
    }

    private final CalibratedFusion.Bonuses bonuses;
    private final Gate gate;
    private final MinMaxNormalizer normalizer = new MinMaxNormalizer();

    public AdaptiveFusion() {
        this(CalibratedFusion.Bonuses.DEFAULTS, Gate.DEFAULTS);
    }

    public AdaptiveFusion(CalibratedFusion.Bonuses bonuses, Gate gate) {
        this.bonuses = bonuses;
        this.gate = gate;
    }

    @Override
    public List<FusedCandidate> fuse(List<BranchResult> results, FusionSettings settings) {
        if (results == null || settings == null) {
            throw new IllegalArgumentException("results and settings are required");
        }
        Map<String, BranchResult> byKey = new TreeMap<>();
        Map<String, List<Hit>> lists = new TreeMap<>();
        for (BranchResult r : results) {
            String key = r.branch().key();
            if (byKey.put(key, r) != null) {
                throw new IllegalArgumentException("branch " + key + " answered twice");
            }
            List<Hit> hits = firstOccurrences(r.hits());
            if (r.answered() && !hits.isEmpty()) {
                lists.put(key, hits);
            }
        }
        if (!lists.containsKey(AdaptiveWeights.COSINE_BRANCH)) {
            // BM25 and TF-IDF alone (a lexical route, or the semantic branch down): no cosine to set the scale
            return new WeightedFusion().fuse(results, settings);
        }
        Map<String, AdaptiveWeights.Choice> choices = AdaptiveWeights.choose(lists, bonuses, gate);
        Map<String, Double> weights = new TreeMap<>();
        choices.forEach((b, c) -> weights.put(b, c.weight()));
        String why = AdaptiveWeights.explain(choices);
        Map<String, Map<Branch, BranchScore>> byChunk = new LinkedHashMap<>();
        Set<String> passed = new HashSet<>();
        lists.forEach((key, hits) -> {
            Branch b = byKey.get(key).branch();
            double w = weights.get(key);
            List<Hit> normalized = normalizer.normalize(hits);
            for (int i = 0; i < hits.size(); i++) {
                double n = normalized.get(i).score();
                boolean above = n >= settings.minNormalized(b);
                String id = hits.get(i).chunkId();
                byChunk.computeIfAbsent(id, k -> new LinkedHashMap<>())
                        .put(b, new BranchScore(hits.get(i).score(), n, i + 1, w, above ? w * n : 0));
                if (above) {
                    passed.add(id);
                }
            }
        });
        List<FusedCandidate> out = new ArrayList<>();
        byChunk.forEach((id, parts) -> {
            if (passed.contains(id)) {
                double sum = parts.values().stream().mapToDouble(BranchScore::contribution).sum();
                out.add(new FusedCandidate(id, Math.min(1.0, sum), parts, NAME, weights, why));
            }
        });
        out.sort(Comparator.comparingDouble(FusedCandidate::score).reversed().thenComparing(FusedCandidate::chunkId));
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
    public String name() {
        return NAME;
    }
}
