package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Query-adaptive fusion, the hub's default: each branch's weight is chosen per query from what the branches
 * returned ({@link AdaptiveWeights}: the spread of the cosines, the configured bonuses of the lexical branches,
 * and a gate on how far each branch's top agrees with another branch's), then
 * <pre>  score(d) = Σ_b w_b · n_b(d)</pre>
 * with n_b the min-max normalised score (0 when b did not return d) and per-branch thresholds as in
 * {@link BranchContributionFusion}. When every branch agrees with another, this ranks as the calibrated fusion
 * does (cosine plus bounded bonuses); a branch whose top agrees with no other loses its say, so an embedding
 * model that does not know the vault's language no longer buries the BM25 answer. Without an answering
 * semantic branch (lexical routes, semantic branch down) this is the {@link WeightedFusion}, as for calibrated,
 * except for a query the model does not read, whose plan leaves the semantic branch out: the other branches then
 * share as they would beside a dense list of no weight.
 *
 * <p>The weights chosen, and why, are in every candidate ({@link FusedCandidate#weights()},
 * {@link FusedCandidate#reason()}). Parameters were chosen leave-one-set-out on shared/bench
 * (docs/retrieval.md).
 */
public class AdaptiveFusion implements FusionMethod {
    public static final String NAME = "adaptive";
    private static final String LEXICAL = "lexical";

    /**
     * The agreement gate: a branch whose best overlap with another branch is at least {@code fullRatio} times
     * the best overlap between two other branches keeps its whole weight; below, the weight falls as
     * (ratio / fullRatio)^power. A large power makes it a switch: a list that shares clearly less than
     * {@code fullRatio} of what the others share is left out, one near it keeps most of its weight.
     *
     * <p>{@code lexicalLead} (0 = off): when BM25's first hit stands clear of its second, by at least this share
     * of the BM25 list's range ({@code (s1 - s2) / (s1 - s_last)}), and BM25 keeps a weight, that hit is put
     * first (fused score 1). A question that quotes its passage gives BM25 one clear winner, which a dense list
     * that does not know the language or the names can outvote otherwise (docs/retrieval.md).
     *
     * <p>{@code modelScripts}: a query written mostly in a script the embedding model does not read (its declared
     * {@link io.poimen.memory.index.ModelScripts}) gives the semantic branch no weight; the other branches keep
     * their adaptive weights. The model's scripts are a property of the model, not a fitted number.
     *
     * <p>{@code keepCoverage} (0 = off): the gate leaves the semantic list its weight when that list's top covers
     * the query's terms at least this many times as well as BM25's top does ({@link QueryCoverage}). A list the
     * model made of text it does not read covers the query's words poorly; a right dense list that BM25 and
     * TF-IDF outvote by agreeing on the wrong chunks covers them about as well. It acts only where the gate cut
     * and needs the query's term shares ({@link AdaptiveFusion#AdaptiveFusion(CalibratedFusion.Bonuses, Gate,
     * boolean, ToDoubleFunction)}).
     */
    public record Gate(double fullRatio, double power, double lexicalLead, boolean modelScripts,
                       double keepCoverage) {
        public static final double DEFAULT_KEEP_COVERAGE = 0.5;
        public static final Gate DEFAULTS = new Gate(0.5, 8, 0, true, DEFAULT_KEEP_COVERAGE);

        public Gate {
            if (!(fullRatio > 0 && fullRatio <= 1) || !(power >= 0 && power <= 64)) {
                throw new IllegalArgumentException("adaptive full_ratio must be in (0, 1] and power in [0, 64], got "
                        + fullRatio + " and " + power);
            }
            if (!(lexicalLead >= 0 && lexicalLead <= 1)) {
                throw new IllegalArgumentException("adaptive lexical_lead must be in [0, 1] (0: off), got "
                        + lexicalLead);
            }
            if (!(keepCoverage >= 0 && keepCoverage <= 1)) {
                throw new IllegalArgumentException("adaptive keep_coverage must be in [0, 1] (0: off), got "
                        + keepCoverage);
            }
        }

        /** The gate with the default coverage keep. */
        public Gate(double fullRatio, double power, double lexicalLead, boolean modelScripts) {
            this(fullRatio, power, lexicalLead, modelScripts, DEFAULT_KEEP_COVERAGE);
        }

        /** The gate without the lexical lead, with the model's scripts. */
        public Gate(double fullRatio, double power) {
            this(fullRatio, power, 0);
        }

        /** The gate with the model's scripts. */
        public Gate(double fullRatio, double power, double lexicalLead) {
            this(fullRatio, power, lexicalLead, true);
        }
    }

    private final CalibratedFusion.Bonuses bonuses;
    private final Gate gate;
    private final boolean semanticReadsQuery;
    private final ToDoubleFunction<String> termShares;

    public AdaptiveFusion() {
        this(CalibratedFusion.Bonuses.DEFAULTS, Gate.DEFAULTS);
    }

    public AdaptiveFusion(CalibratedFusion.Bonuses bonuses, Gate gate) {
        this(bonuses, gate, true);
    }

    /**
     * @param semanticReadsQuery whether the embedding model reads the query's script
     *                           ({@link io.poimen.memory.index.ModelScripts#reads}); with {@link Gate#modelScripts()}
     *                           off it is not looked at
     */
    public AdaptiveFusion(CalibratedFusion.Bonuses bonuses, Gate gate, boolean semanticReadsQuery) {
        this(bonuses, gate, semanticReadsQuery, null);
    }

    /**
     * @param termShares chunk id → the IDF-weighted share of the query's terms the chunk holds, in [0, 1]
     *                   ({@code TfIdfIndex#termShares}); null: not known, so the gate's coverage keep does nothing
     */
    public AdaptiveFusion(CalibratedFusion.Bonuses bonuses, Gate gate, boolean semanticReadsQuery,
                          ToDoubleFunction<String> termShares) {
        this.bonuses = bonuses;
        this.gate = gate;
        this.semanticReadsQuery = semanticReadsQuery;
        this.termShares = termShares;
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
            List<Hit> hits = CandidateAssembly.firstOccurrences(r.hits());
            if (r.answered() && !hits.isEmpty()) {
                lists.put(key, hits);
            }
        }
        boolean reads = !gate.modelScripts() || semanticReadsQuery;
        Map<String, AdaptiveWeights.Choice> choices;
        String note;
        if (lists.containsKey(AdaptiveWeights.COSINE_BRANCH)) {
            choices = AdaptiveWeights.choose(lists, bonuses, gate, reads);
            note = keptByCoverage(lists, choices.get(AdaptiveWeights.COSINE_BRANCH));
            if (note != null) {
                choices = AdaptiveWeights.choose(lists, bonuses, gate, reads, true);
            }
        } else if (!reads && !lists.isEmpty()) {
            // the plan left the semantic branch out for the query's script: the other branches share as they would
            // beside a dense list of no weight (their bonuses in either unit keep their ratio)
            choices = AdaptiveWeights.choose(lists, bonuses.withUnit(CalibratedFusion.Unit.COSINE), gate);
            note = "semantic branch not run: query script not read by the embedding model";
        } else {
            // BM25 and TF-IDF alone (a lexical route, or the semantic branch down): no cosine to set the scale
            return new WeightedFusion().fuse(results, settings);
        }
        Map<String, Double> weights = new TreeMap<>();
        choices.forEach((b, c) -> weights.put(b, c.weight()));
        String lead = lexicalLead(lists, weights);
        String why = AdaptiveWeights.explain(choices) + (note == null ? "" : ", " + note)
                + (lead == null ? "" : String.format(java.util.Locale.ROOT, ", lexical lead %s (gap %.2f)", lead,
                        leadGap(lists.get(LEXICAL))));
        Map<Branch, List<Hit>> byBranch = new LinkedHashMap<>();
        Map<Branch, Double> byBranchWeight = new LinkedHashMap<>();
        lists.forEach((key, hits) -> {
            byBranch.put(byKey.get(key).branch(), hits);
            byBranchWeight.put(byKey.get(key).branch(), weights.get(key));
        });
        List<FusedCandidate> out = new ArrayList<>();
        CandidateAssembly.collect(byBranch, byBranchWeight, settings, (b, n, rank, w) -> w * n)
                .forEach((id, parts) -> out.add(new FusedCandidate(id,
                        id.equals(lead) ? 1.0 : Math.min(1.0, CandidateAssembly.sum(parts)), parts, NAME, weights, why)));
        return CandidateAssembly.sorted(out);
    }

    /**
     * Why the gate leaves the semantic list its weight (its top covers the query's terms at least
     * {@code keepCoverage} times as well as BM25's), or null: the gate did not cut it, the model does not read the
     * query, there is no BM25 list or no term shares, or the list covers the query too poorly.
     */
    private String keptByCoverage(Map<String, List<Hit>> lists, AdaptiveWeights.Choice semantic) {
        List<Hit> lexical = lists.get(LEXICAL);
        if (gate.keepCoverage() <= 0 || termShares == null || lexical == null || semantic.gate() >= 1
                || semantic.unread()) {
            return null;
        }
        double own = QueryCoverage.of(lists.get(AdaptiveWeights.COSINE_BRANCH), termShares);
        double bm25 = QueryCoverage.of(lexical, termShares);
        return own >= gate.keepCoverage() * bm25 ? String.format(java.util.Locale.ROOT,
                "semantic kept by the gate (its top covers the query %.2f, BM25's %.2f)", own, bm25) : null;
    }

    /**
     * BM25's first hit when it leads by the gate's {@code lexicalLead} and BM25 keeps a weight, else null. Its
     * fused score becomes 1, above every other chunk: with BM25's weight above 0 only a chunk at the top of every
     * weighted list, which is this one, sums to 1.
     */
    private String lexicalLead(Map<String, List<Hit>> lists, Map<String, Double> weights) {
        List<Hit> lexical = lists.get(LEXICAL);
        if (gate.lexicalLead() <= 0 || lexical == null || lexical.size() < 2
                || !(weights.getOrDefault(LEXICAL, 0.0) > 0) || leadGap(lexical) < gate.lexicalLead()) {
            return null;
        }
        return lexical.get(0).chunkId();
    }

    /** (s1 - s2) / (s1 - s_last) of a list, best first: how far its first hit stands clear; 0 without a range. */
    static double leadGap(List<Hit> hits) {
        double range = AdaptiveWeights.spread(hits);
        return hits.size() < 2 || range <= 0 ? 0 : (hits.get(0).score() - hits.get(1).score()) / range;
    }

    @Override
    public String name() {
        return NAME;
    }
}
