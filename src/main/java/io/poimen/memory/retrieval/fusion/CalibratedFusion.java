package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Calibrated fusion, the hub's default. The semantic branch's cosine similarity means the same thing in every
 * query, so it is kept as it is; min-max normalising it (as the weighted fusion does) stretches a cluster of
 * near-equal cosines over [0, 1] and lets a lexical list reorder them at will. BM25 and TF-IDF scores have no
 * such scale, so they are min-max normalised and added as bounded bonuses, expressed in cosine units:
 * <pre>  score(d) = cos(d) + β_lex · n_lex(d) + β_tfidf · n_tfidf(d)</pre>
 * (with {@code bonus_unit: spread}, each β is multiplied by the spread of the query's semantic list).
 * A chunk the semantic branch did not return gets that list's lowest cosine (it ranked below all of them), so
 * an exact keyword only BM25 finds still competes with the tail of the semantic list. Per-branch thresholds
 * apply to the lexical bonuses as in {@link BranchContributionFusion}. Without an answering semantic branch this
 * is the {@link WeightedFusion}.
 *
 * <p>Measured with {@code bench beir}: on both sets in shared/bench this beats the best single branch, where the
 * fixed 0.6/0.4 weighted formula and RRF fall below it on one set or the other (numbers in docs/retrieval-history.md).
 */
public class CalibratedFusion implements FusionMethod {
    public static final String NAME = "calibrated";

    /** What a bonus of 0.1 means: 0.1 in cosine units, or 0.1 × the spread of this query's semantic list. */
    public enum Unit {
        /** Cosine units: the same amount whatever the model's cosine scale (fitted for all-MiniLM-L6-v2). */
        COSINE,
        /**
         * A fraction of the semantic list's spread (top − lowest cosine of this query's list), so that the lexical
         * lists move a model that packs its cosines tightly (BGE, E5) as much as one that spreads them.
         */
        SPREAD,
        /**
         * {@link #COSINE} for the model the bonuses were fitted on ({@link EmbeddingModelChoice#ALL_MINILM_L6_V2_Q}),
         * {@link #SPREAD} for every other one: resolved with {@link #forModel} before any fusion reads it.
         */
        AUTO;

        public static Unit of(String name) {
            for (Unit u : values()) {
                if (u.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
                    return u;
                }
            }
            throw new IllegalArgumentException("bonus_unit must be auto, cosine or spread, got " + name);
        }

        /** The unit a fusion applies with {@code model}'s cosines: {@link #AUTO} resolved, the others as they are. */
        public Unit forModel(EmbeddingModelChoice model) {
            if (this != AUTO) {
                return this;
            }
            return model == EmbeddingModelChoice.ALL_MINILM_L6_V2_Q ? COSINE : SPREAD;
        }
    }

    /**
     * Bonus weights: the most a lexical branch's top hit can add, in {@code unit}s. {@code added}: the bonuses of
     * branches a route adds ({@code fusion.calibrated.<name>_bonus}); such a branch without one adds 0.
     */
    public record Bonuses(double lexical, double tfidf, Map<Branch, Double> added, Unit unit) {
        public static final Bonuses DEFAULTS = new Bonuses(0.1, 0.0);

        public Bonuses {
            if (!(lexical >= 0 && lexical <= 1) || !(tfidf >= 0 && tfidf <= 1)) {
                throw new IllegalArgumentException("calibrated bonuses must be in [0, 1], got lexical=" + lexical
                        + " tfidf=" + tfidf);
            }
            added = added == null ? Map.of() : Map.copyOf(added);
            added.forEach((b, v) -> {
                if (!(v >= 0 && v <= 1)) {
                    throw new IllegalArgumentException("calibrated bonuses must be in [0, 1], got " + b + "=" + v);
                }
            });
            unit = unit == null ? Unit.COSINE : unit;
        }

        public Bonuses(double lexical, double tfidf, Map<Branch, Double> added) {
            this(lexical, tfidf, added, Unit.COSINE);
        }

        public Bonuses(double lexical, double tfidf) {
            this(lexical, tfidf, Map.of());
        }

        public Bonuses withUnit(Unit u) {
            return new Bonuses(lexical, tfidf, added, u);
        }

        double of(Branch b) {
            return b == Branch.SEMANTIC ? 1.0 : b == Branch.LEXICAL ? lexical : b == Branch.TFIDF ? tfidf
                    : added.getOrDefault(b, 0.0);
        }

        /**
         * Branch {@code b}'s weight in cosine units for a query whose semantic list spreads over
         * {@code semanticSpread}: 1 for the semantic branch, its bonus (times the spread in {@link Unit#SPREAD}).
         */
        double inCosine(Branch b, double semanticSpread) {
            if (unit == Unit.AUTO) {
                throw new IllegalStateException("bonus_unit auto is resolved for the embedding model before fusing");
            }
            return b == Branch.SEMANTIC ? 1 : of(b) * (unit == Unit.SPREAD ? semanticSpread : 1);
        }
    }

    private final Bonuses bonuses;
    private final MinMaxNormalizer normalizer = new MinMaxNormalizer();

    public CalibratedFusion() {
        this(Bonuses.DEFAULTS);
    }

    public CalibratedFusion(Bonuses bonuses) {
        this.bonuses = bonuses;
    }

    @Override
    public List<FusedCandidate> fuse(List<BranchResult> results, FusionSettings settings) {
        BranchResult semantic = results.stream()
                .filter(r -> r.branch() == Branch.SEMANTIC && r.answered() && !r.hits().isEmpty())
                .findFirst().orElse(null);
        if (semantic == null) {
            return new WeightedFusion().fuse(results, settings);
        }
        double floor = semantic.hits().stream().mapToDouble(Hit::score).min().orElse(0);
        double spread = AdaptiveWeights.spread(semantic.hits());
        Map<String, Map<Branch, BranchScore>> byChunk = new LinkedHashMap<>();
        Set<String> kept = new HashSet<>();
        for (BranchResult r : results) {
            if (!r.answered()) {
                continue;
            }
            Branch b = r.branch();
            List<Hit> normalized = normalizer.normalize(r.hits());
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < r.hits().size(); i++) {
                Hit hit = r.hits().get(i);
                if (!seen.add(hit.chunkId())) {
                    continue;
                }
                double n = normalized.get(i).score();
                boolean above = b == Branch.SEMANTIC || n >= settings.minNormalized(b);
                double weight = bonuses.inCosine(b, spread);
                double contribution = b == Branch.SEMANTIC ? hit.score() : above ? weight * n : 0;
                byChunk.computeIfAbsent(hit.chunkId(), k -> new LinkedHashMap<>())
                        .put(b, new BranchScore(hit.score(), n, seen.size(), weight, contribution));
                if (above) {
                    kept.add(hit.chunkId());
                }
            }
        }
        List<FusedCandidate> out = new ArrayList<>();
        byChunk.forEach((id, parts) -> {
            if (kept.contains(id)) {
                double score = parts.values().stream().mapToDouble(BranchScore::contribution).sum()
                        + (parts.containsKey(Branch.SEMANTIC) ? 0 : floor);
                out.add(new FusedCandidate(id, score, parts, NAME));
            }
        });
        out.sort(Comparator.comparingDouble(FusedCandidate::score).reversed().thenComparing(FusedCandidate::chunkId));
        return out;
    }

    @Override
    public String name() {
        return NAME;
    }
}
