package io.poimen.bench.eval;

import java.util.List;
import java.util.Map;

/** The standard ranking measures, as trec_eval / BEIR compute them (linear gain for nDCG). */
public final class RankingMetrics {
    private RankingMetrics() {
    }

    /**
     * nDCG@k = DCG@k / IDCG@k with DCG = Σ_{i=1..k} rel_i / log2(i + 1); IDCG sorts all judged grades
     * descending. 0 when nothing is relevant.
     */
    public static double ndcg(List<String> ranked, Map<String, Integer> qrels, int k) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            dcg += Math.max(0, qrels.getOrDefault(ranked.get(i), 0)) / log2(i + 2);
        }
        List<Integer> ideal = qrels.values().stream().filter(g -> g > 0).sorted((a, b) -> b - a).toList();
        double idcg = 0;
        for (int i = 0; i < Math.min(k, ideal.size()); i++) {
            idcg += ideal.get(i) / log2(i + 2);
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    /** Recall@k = relevant docs in the top k ÷ all relevant docs (grade > 0). */
    public static double recall(List<String> ranked, Map<String, Integer> qrels, int k) {
        long relevant = qrels.values().stream().filter(g -> g > 0).count();
        if (relevant == 0) {
            return 0;
        }
        long found = ranked.stream().limit(k).filter(d -> qrels.getOrDefault(d, 0) > 0).count();
        return (double) found / relevant;
    }

    /** MRR@k = 1 / rank of the first relevant doc in the top k, 0 when none. */
    public static double mrr(List<String> ranked, Map<String, Integer> qrels, int k) {
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            if (qrels.getOrDefault(ranked.get(i), 0) > 0) {
                return 1.0 / (i + 1);
            }
        }
        return 0;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
