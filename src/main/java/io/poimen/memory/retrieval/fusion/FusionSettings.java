package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.retrieval.branch.Branch;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How branch results are fused.
 *
 * <p><b>Weights are relative.</b> Each branch b has a weight w_b; the weights of the branches that answered
 * (not failed, not timed out, not left out by routing) are renormalised to sum to 1:
 * <pre>  w'_b = w_b / Σ_{answered a} w_a</pre>
 * With the defaults (semantic 0.6, lexical/BM25 0.4, TF-IDF 0.2) a hybrid query uses 0.5 / 0.333 / 0.167:
 * semantic to BM25 stays 0.6 : 0.4 and TF-IDF adds a second lexical signal at half BM25's weight. When the
 * semantic branch is down, BM25 and TF-IDF use 0.667 / 0.333, so a degraded branch does not shrink every score.
 * If every answered branch has weight 0 they share equally (a {@code tfidf} query with a TF-IDF weight of 0
 * still ranks by TF-IDF).
 *
 * <p><b>Thresholds are per branch</b>, on the branch's min-max normalised score: a hit below
 * {@code minNormalized(b)} contributes nothing from b. There is deliberately no fused-score threshold: one above a
 * branch's weight would drop every hit found by that branch alone, such as an exact keyword only BM25 finds.
 *
 * @param method        "adaptive" (default), "calibrated", "weighted" (linear) or "rrf"
 * @param weights       weight of each branch by name ({@code fusion.weights} of policies/retrieval.yaml), each
 *                      ≥ 0, at least one > 0; a branch without a weight has 0
 * @param rrfK          RRF rank constant, 1..10000
 * @param minNormalized per-branch minimum normalised score in [0, 1]; missing branches have 0
 */
public record FusionSettings(String method, Map<Branch, Double> weights, int rrfK, Map<Branch, Double> minNormalized) {
    public static final String WEIGHTED = WeightedFusion.NAME;
    public static final String RRF = RrfFusion.NAME;
    public static final int DEFAULT_RRF_K = 60;
    public static final int MAX_RRF_K = 10_000;

    public FusionSettings {
        if (method == null) {
            throw new IllegalArgumentException("fusion method must be one of " + FusionMethods.names() + ", got null");
        }
        String m = method.trim().toLowerCase(Locale.ROOT);
        if (!FusionMethods.names().contains(m)) {
            throw new IllegalArgumentException("fusion method must be one of " + FusionMethods.names() + ", got '"
                    + method + "'");
        }
        method = m;
        Map<Branch, Double> ws = new LinkedHashMap<>();
        if (weights != null) {
            weights.forEach((b, w) -> {
                if (b == null || w == null) {
                    throw new IllegalArgumentException("a branch weight needs a branch and a number, got " + b + "=" + w);
                }
                checkWeight(b.key(), w);
                ws.put(b, w);
            });
        }
        if (ws.values().stream().mapToDouble(Double::doubleValue).sum() == 0) {
            throw new IllegalArgumentException("at least one branch weight must be > 0, all are 0");
        }
        weights = java.util.Collections.unmodifiableMap(ws);
        if (rrfK < 1 || rrfK > MAX_RRF_K) {
            throw new IllegalArgumentException("rrf k must be in 1.." + MAX_RRF_K + ", got " + rrfK);
        }
        Map<Branch, Double> mins = new LinkedHashMap<>();
        if (minNormalized != null) {
            minNormalized.forEach((b, v) -> {
                if (b == null || v == null || !(v >= 0 && v <= 1)) {
                    throw new IllegalArgumentException("min normalised score must be in [0, 1], got " + b + "=" + v);
                }
                mins.put(b, v);
            });
        }
        minNormalized = Map.copyOf(mins);
    }

    /** The weights of the three built-in branches only. */
    public FusionSettings(String method, double semanticWeight, double lexicalWeight, double tfidfWeight, int rrfK,
                          Map<Branch, Double> minNormalized) {
        this(method, builtIn(semanticWeight, lexicalWeight, tfidfWeight), rrfK, minNormalized);
    }

    private static Map<Branch, Double> builtIn(double semantic, double lexical, double tfidf) {
        Map<Branch, Double> w = new LinkedHashMap<>();
        w.put(Branch.SEMANTIC, semantic);
        w.put(Branch.LEXICAL, lexical);
        w.put(Branch.TFIDF, tfidf);
        return w;
    }

    /** weighted, 0.6 semantic, 0.4 lexical, 0.2 TF-IDF, k = 60, no branch thresholds. */
    public static FusionSettings defaults() {
        return new FusionSettings(WEIGHTED, 0.6, 0.4, 0.2, DEFAULT_RRF_K, Map.of());
    }

    public FusionSettings withMethod(String newMethod) {
        return new FusionSettings(newMethod, weights, rrfK, minNormalized);
    }

    public FusionSettings withMinNormalized(Map<Branch, Double> mins) {
        return new FusionSettings(method, weights, rrfK, mins);
    }

    /** These weights with {@code overrides} replacing or adding the branches they name. */
    public FusionSettings withWeights(Map<Branch, Double> overrides) {
        Map<Branch, Double> w = new LinkedHashMap<>(weights);
        w.putAll(overrides);
        return new FusionSettings(method, w, rrfK, minNormalized);
    }

    /** The configured (not renormalised) weight of a branch; 0 for a branch without one. */
    public double weight(Branch branch) {
        return weights.getOrDefault(branch, 0.0);
    }

    public double semanticWeight() {
        return weight(Branch.SEMANTIC);
    }

    public double lexicalWeight() {
        return weight(Branch.LEXICAL);
    }

    public double tfidfWeight() {
        return weight(Branch.TFIDF);
    }

    public double minNormalized(Branch branch) {
        return minNormalized.getOrDefault(branch, 0.0);
    }

    private static void checkWeight(String name, double w) {
        if (!(w >= 0) || Double.isInfinite(w)) {
            throw new IllegalArgumentException(name + " weight must be a finite number ≥ 0, got " + w);
        }
    }
}
