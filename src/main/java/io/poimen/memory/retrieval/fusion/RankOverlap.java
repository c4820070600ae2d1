package io.poimen.memory.retrieval.fusion;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How much the tops of two rankings agree: rank-biased overlap (Webber, Moffat and Zobel 2010) truncated at a
 * depth d and divided by its maximum, so that identical tops give 1 and disjoint tops 0:
 * <pre>  rbo(A, B) = (1 - p) Σ_{k=1..d} p^(k-1) |A_k ∩ B_k| / k  ÷  (1 - p^d)</pre>
 * with A_k the first k ids of A. The first places weigh most, but with p = 0.98 and d = 100 the whole
 * candidate list counts: agreement deep in two lists is less a matter of chance than a few shared top ids.
 */
final class RankOverlap {
    static final double PERSISTENCE = 0.98;
    static final int DEPTH = 100;

    private RankOverlap() {
    }

    static double of(List<String> a, List<String> b) {
        Set<String> seenA = new HashSet<>();
        Set<String> seenB = new HashSet<>();
        int shared = 0;
        double sum = 0;
        double weight = 1;
        for (int k = 1; k <= DEPTH; k++) {
            String x = k <= a.size() ? a.get(k - 1) : null;
            String y = k <= b.size() ? b.get(k - 1) : null;
            if (x != null && x.equals(y)) {
                shared++;
            } else {
                shared += (x != null && seenB.contains(x) ? 1 : 0) + (y != null && seenA.contains(y) ? 1 : 0);
            }
            if (x != null) {
                seenA.add(x);
            }
            if (y != null) {
                seenB.add(y);
            }
            sum += weight * shared / k;
            weight *= PERSISTENCE;
        }
        return (1 - PERSISTENCE) * sum / (1 - Math.pow(PERSISTENCE, DEPTH));
    }
}
