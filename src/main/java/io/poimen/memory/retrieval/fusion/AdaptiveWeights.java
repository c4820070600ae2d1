package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The weights of the adaptive fusion for one query, from the branches' own lists.
 *
 * <p><b>Scale.</b> A cosine similarity means the same in every query, so the semantic branch's weight is the
 * spread of its cosines over its list (top minus last): a list of near-equal cosines, which is what a model
 * returns for text it does not understand, carries little. BM25 and TF-IDF scores have no fixed scale; each
 * counts its configured bonus in cosine units (the calibrated fusion's {@code lexical_bonus}, {@code tfidf_bonus}),
 * or with {@code bonus_unit: spread} as that fraction of the semantic list's spread.
 *
 * <p><b>Agreement.</b> A branch whose list shares much less with the others than the others share with each
 * other is most likely returning noise for this query (a model that does not know the vault's language, next
 * to BM25 and TF-IDF that agree on the same paragraphs). Its weight is multiplied by a gate on that ratio of
 * {@link RankOverlap}s:
 * <pre>  ratio = max_a rbo(b, a) / max_{a,c ≠ b} rbo(a, c)      gate = min(1, ratio / full)^power</pre>
 * When the other branches do not agree with each other either, or b has no two others, nothing says which list
 * is the noise and the gate is 1. When every gated weight is 0 the gates are left out; when every weight is
 * still 0 the branches share equally. Weights are then divided by their sum.
 *
 * <p><b>Script.</b> When the embedding model does not read the query's script, the semantic branch's weight is 0
 * and the rules above choose among the other branches (when only the semantic branch answered, it keeps its say).
 */
final class AdaptiveWeights {
    /** The branch whose scores are cosine similarities. */
    static final String COSINE_BRANCH = "semantic";

    private AdaptiveWeights() {
    }

    /** One branch's weight and what it came from; {@code unread}: the model does not read the query's script. */
    record Choice(double weight, double scale, double overlap, double gate, boolean unread) {
    }

    /** @param lists branch key → its hits, best first, each chunk once, none empty */
    static Map<String, Choice> choose(Map<String, List<Hit>> lists, CalibratedFusion.Bonuses bonuses,
                                      AdaptiveFusion.Gate gate) {
        return choose(lists, bonuses, gate, true);
    }

    /**
     * @param semanticReadsQuery false: the embedding model does not read the query's script, so the semantic
     *                           branch counts for nothing when another branch answered
     */
    static Map<String, Choice> choose(Map<String, List<Hit>> lists, CalibratedFusion.Bonuses bonuses,
                                      AdaptiveFusion.Gate gate, boolean semanticReadsQuery) {
        return choose(lists, bonuses, gate, semanticReadsQuery, false);
    }

    /** @param keepSemantic true: the gate leaves the semantic branch its weight (the coverage keep) */
    static Map<String, Choice> choose(Map<String, List<Hit>> lists, CalibratedFusion.Bonuses bonuses,
                                      AdaptiveFusion.Gate gate, boolean semanticReadsQuery, boolean keepSemantic) {
        boolean dropSemantic = !semanticReadsQuery && lists.keySet().stream().anyMatch(b -> !COSINE_BRANCH.equals(b));
        Map<String, List<String>> ids = new TreeMap<>();
        lists.forEach((b, hits) -> ids.put(b, hits.stream().map(Hit::chunkId).toList()));
        Map<String, double[]> parts = new TreeMap<>(); // scale, overlap, gate
        double semanticSpread = spread(lists.getOrDefault(COSINE_BRANCH, List.of()));
        for (String b : lists.keySet()) {
            double scale = COSINE_BRANCH.equals(b) ? semanticSpread
                    : bonuses.inCosine(Branch.ofKey(b), semanticSpread);
            double overlap = 0;
            double others = 0;
            for (String a : ids.keySet()) {
                for (String c : ids.keySet()) {
                    if (a.equals(b) || c.equals(b) || a.compareTo(c) >= 0) {
                        continue;
                    }
                    others = Math.max(others, RankOverlap.of(ids.get(a), ids.get(c)));
                }
                if (!a.equals(b)) {
                    overlap = Math.max(overlap, RankOverlap.of(ids.get(b), ids.get(a)));
                }
            }
            double g = others <= 0 || (keepSemantic && COSINE_BRANCH.equals(b)) ? 1
                    : Math.pow(Math.min(1, overlap / others / gate.fullRatio()), gate.power());
            parts.put(b, new double[] {scale, overlap, g});
        }
        Map<String, double[]> counted = new TreeMap<>(parts);
        if (dropSemantic) {
            counted.remove(COSINE_BRANCH);
        }
        boolean anyGate = counted.values().stream().anyMatch(p -> p[0] * p[2] > 0);
        boolean anyScale = counted.values().stream().anyMatch(p -> p[0] > 0);
        double total = 0;
        Map<String, Double> raw = new TreeMap<>();
        for (Map.Entry<String, double[]> e : parts.entrySet()) {
            double[] p = e.getValue();
            double w = !counted.containsKey(e.getKey()) ? 0 : anyGate ? p[0] * p[2] : anyScale ? p[0] : 1;
            raw.put(e.getKey(), w);
            total += w;
        }
        Map<String, Choice> out = new TreeMap<>();
        for (Map.Entry<String, double[]> e : parts.entrySet()) {
            double[] p = e.getValue();
            out.put(e.getKey(), new Choice(raw.get(e.getKey()) / total, p[0], p[1], p[2],
                    !counted.containsKey(e.getKey())));
        }
        return out;
    }

    /** "adaptive weights lexical 0.29 (bonus 0.10, overlap 0.42), semantic 0.71 (cosine spread 0.24, ...)". */
    static String explain(Map<String, Choice> choices) {
        List<String> parts = new ArrayList<>();
        choices.forEach((b, c) -> parts.add(String.format(Locale.ROOT, "%s %.2f (%s %.2f, overlap %.2f%s%s)", b,
                c.weight(), COSINE_BRANCH.equals(b) ? "cosine spread" : "bonus", c.scale(), c.overlap(),
                c.gate() < 1 ? String.format(Locale.ROOT, ", gate %.2f", c.gate()) : "",
                c.unread() ? ", query script not read by the embedding model" : "")));
        return "adaptive weights " + String.join(", ", parts);
    }

    /** Top score minus lowest score of the list; 0 for one hit or equal scores (nothing told apart). */
    static double spread(List<Hit> hits) {
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        for (Hit h : hits) {
            max = Math.max(max, h.score());
            min = Math.min(min, h.score());
        }
        return Math.max(0, max - min);
    }
}
