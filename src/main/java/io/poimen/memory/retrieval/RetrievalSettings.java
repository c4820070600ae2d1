package io.poimen.memory.retrieval;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.fusion.AdaptiveFusion;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
import io.poimen.memory.retrieval.fusion.FusionSettings;
import io.poimen.memory.retrieval.query.QueryRouter;
import io.poimen.memory.retrieval.select.RecencyAndHits;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything {@code policies/retrieval.yaml} sets: fusion, per-branch thresholds, boosts (metadata, recency and
 * hits of the TF-IDF branch), candidate counts, the shortest query that may use the embedding, and the selection
 * (top-k, token budget, near-duplicate removal).
 */
public record RetrievalSettings(FusionSettings fusion, double keyTermBoost, double categoryBoost,
                                int candidatesPerBranch, int topK, int budgetTokens,
                                int shingleSize, double jaccard,
                                CalibratedFusion.Bonuses calibration, int minTokensForHybrid,
                                AdaptiveFusion.Gate gate, RecencyAndHits recencyAndHits) {

    public RetrievalSettings(FusionSettings fusion, double keyTermBoost, double categoryBoost,
                             int candidatesPerBranch, int topK, int budgetTokens, int shingleSize, double jaccard,
                             CalibratedFusion.Bonuses calibration, int minTokensForHybrid, AdaptiveFusion.Gate gate) {
        this(fusion, keyTermBoost, categoryBoost, candidatesPerBranch, topK, budgetTokens, shingleSize, jaccard,
                calibration, minTokensForHybrid, gate, RecencyAndHits.OFF);
    }

    public RetrievalSettings(FusionSettings fusion, double keyTermBoost, double categoryBoost,
                             int candidatesPerBranch, int topK, int budgetTokens, int shingleSize, double jaccard,
                             CalibratedFusion.Bonuses calibration, int minTokensForHybrid) {
        this(fusion, keyTermBoost, categoryBoost, candidatesPerBranch, topK, budgetTokens, shingleSize, jaccard,
                calibration, minTokensForHybrid, AdaptiveFusion.Gate.DEFAULTS);
    }

    public RetrievalSettings(FusionSettings fusion, double keyTermBoost, double categoryBoost,
                             int candidatesPerBranch, int topK, int budgetTokens, int shingleSize, double jaccard,
                             CalibratedFusion.Bonuses calibration) {
        this(fusion, keyTermBoost, categoryBoost, candidatesPerBranch, topK, budgetTokens, shingleSize, jaccard,
                calibration, QueryRouter.MIN_HYBRID_TOKENS);
    }

    public static RetrievalSettings defaults() {
        return new RetrievalSettings(FusionSettings.defaults().withMethod(AdaptiveFusion.NAME), 1.5, 1.3, 50, 10,
                2000, 5, 0.8, CalibratedFusion.Bonuses.DEFAULTS);
    }

    /** These settings with {@code fusion.calibrated.bonus_unit: auto} resolved for {@code model}'s cosines. */
    public RetrievalSettings forModel(EmbeddingModelChoice model) {
        CalibratedFusion.Bonuses resolved = calibration.withUnit(calibration.unit().forModel(model));
        return new RetrievalSettings(fusion, keyTermBoost, categoryBoost, candidatesPerBranch, topK, budgetTokens,
                shingleSize, jaccard, resolved, minTokensForHybrid, gate, recencyAndHits);
    }

    /** Reads the YAML mapping; missing keys keep their defaults, bad values throw with the key named. */
    public static RetrievalSettings fromYaml(Map<String, Object> y) {
        RetrievalSettings d = defaults();
        Map<String, Object> fusion = map(y, "fusion");
        Map<String, Object> weights = map(fusion, "weights");
        Map<String, Object> calibrated = map(fusion, "calibrated");
        Map<String, Object> adaptive = map(fusion, "adaptive");
        Map<String, Object> thresholds = map(y, "thresholds");
        Map<String, Object> boosts = map(y, "boosts");
        Map<String, Object> selection = map(y, "selection");
        Map<String, Object> dup = map(selection, "near_duplicate");
        FusionSettings f = new FusionSettings(
                str(fusion, "method", d.fusion().method()),
                byBranch("fusion.weights", weights, d.fusion().weights()),
                (int) num(fusion, "rrf_k", d.fusion().rrfK()),
                byBranch("thresholds", thresholds, d.fusion().minNormalized()));
        return new RetrievalSettings(f, num(boosts, "key_term", d.keyTermBoost()),
                num(boosts, "category", d.categoryBoost()),
                (int) num(y, "candidates_per_branch", d.candidatesPerBranch()),
                (int) num(selection, "top_k", d.topK()), (int) num(selection, "budget_tokens", d.budgetTokens()),
                (int) num(dup, "shingle_size", d.shingleSize()), num(dup, "jaccard", d.jaccard()),
                new CalibratedFusion.Bonuses(num(calibrated, "lexical_bonus", d.calibration().lexical()),
                        num(calibrated, "tfidf_bonus", d.calibration().tfidf()), addedBonuses(calibrated),
                        CalibratedFusion.Unit.of(str(calibrated, "bonus_unit", CalibratedFusion.Unit.AUTO.name()))),
                (int) num(y, "min_tokens_for_hybrid", d.minTokensForHybrid()),
                new AdaptiveFusion.Gate(num(adaptive, "full_ratio", d.gate().fullRatio()),
                        num(adaptive, "power", d.gate().power()),
                        num(adaptive, "lexical_lead", d.gate().lexicalLead()),
                        bool(adaptive, "model_scripts", d.gate().modelScripts()),
                        num(adaptive, "keep_coverage", d.gate().keepCoverage())),
                recencyAndHits(boosts, d.recencyAndHits()));
    }

    /** {@code boosts.recency} and {@code boosts.hits}; each value is checked as it is read, so a bad one names its key. */
    private static RecencyAndHits recencyAndHits(Map<String, Object> boosts, RecencyAndHits d) {
        Map<String, Object> recency = map(boosts, "recency");
        double recencyWeight = atLeast(recency, "weight", d.recencyWeight(), true);
        double halfLife = atLeast(recency, "half_life_days", d.halfLifeDays(), false);
        Map<String, Object> hits = map(boosts, "hits");
        double hitWeight = atLeast(hits, "weight", d.hitWeight(), true);
        return new RecencyAndHits(recencyWeight, halfLife, hitWeight, atLeast(hits, "half_count", d.halfCount(), false));
    }

    private static double atLeast(Map<String, Object> y, String key, double fallback, boolean zeroAllowed) {
        double v = num(y, key, fallback);
        if (!Double.isFinite(v) || v < 0 || (!zeroAllowed && v == 0)) {
            throw new IllegalArgumentException(key + " must be a number " + (zeroAllowed ? "≥ 0" : "> 0") + ", got " + v);
        }
        return v;
    }

    /** {@code defaults}, then one number per branch name under {@code key} (a branch a route adds, too). */
    private static Map<Branch, Double> byBranch(String key, Map<String, Object> y, Map<Branch, Double> defaults) {
        Map<Branch, Double> out = new LinkedHashMap<>(defaults);
        y.forEach((name, v) -> {
            Branch b;
            try {
                b = Branch.ofKey(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + ": " + e.getMessage());
            }
            out.put(b, num(y, name, 0));
        });
        return out;
    }

    /** {@code <name>_bonus} of the calibrated fusion for branches other than lexical and tfidf. */
    private static Map<Branch, Double> addedBonuses(Map<String, Object> calibrated) {
        Map<Branch, Double> out = new LinkedHashMap<>();
        calibrated.forEach((k, v) -> {
            if (k.endsWith("_bonus") && !k.equals("lexical_bonus") && !k.equals("tfidf_bonus")) {
                out.put(Branch.ofKey(k.substring(0, k.length() - "_bonus".length())), num(calibrated, k, 0));
            }
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> y, String key) {
        Object v = y.get(key);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException(key + " must be a mapping");
        }
        return (Map<String, Object>) v;
    }

    private static double num(Map<String, Object> y, String key, double fallback) {
        Object v = y.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException(key + " must be a number, got " + v);
    }

    private static boolean bool(Map<String, Object> y, String key, boolean fallback) {
        Object v = y.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw new IllegalArgumentException(key + " must be true or false, got " + v);
    }

    private static String str(Map<String, Object> y, String key, String fallback) {
        Object v = y.get(key);
        return v == null ? fallback : v.toString();
    }
}
