package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.Hit;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * How well the top of a ranked list covers the query's terms: each of the first {@link #DEPTH} chunks' share of
 * the query's terms (IDF-weighted, from {@code shares}), averaged with nDCG's discount 1 / log2(rank + 1):
 * <pre>  coverage = Σ_{r≤10} share(d_r) / log2(r + 1)  ÷  Σ_{r≤10} 1 / log2(r + 1)</pre>
 * 1 when every top chunk holds every query term, 0 when none holds any.
 */
final class QueryCoverage {
    static final int DEPTH = 10;

    private QueryCoverage() {
    }

    /** @param shares chunk id → the IDF-weighted share of the query's terms it holds, in [0, 1] */
    static double of(List<Hit> hits, ToDoubleFunction<String> shares) {
        double covered = 0;
        double discounts = 0;
        for (int r = 1; r <= Math.min(DEPTH, hits.size()); r++) {
            double discount = 1 / (Math.log(r + 1) / Math.log(2));
            covered += discount * shares.applyAsDouble(hits.get(r - 1).chunkId());
            discounts += discount;
        }
        return discounts == 0 ? 0 : covered / discounts;
    }
}
