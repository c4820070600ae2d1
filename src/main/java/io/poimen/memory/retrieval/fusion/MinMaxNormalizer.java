package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.index.Hit;
import java.util.ArrayList;
import java.util.List;

/**
 * Min-max normalisation of one branch's scores to [0, 1], so that scores of different engines
 * (BM25 is unbounded, cosine is in [-1, 1]) can be added:
 * <pre>  n(s) = (s - min) / (max - min)</pre>
 * A single hit, or hits that all score the same, normalise to 1.0 (the branch found them and cannot tell them
 * apart). No hits gives no hits. Order and chunk ids are kept.
 */
public class MinMaxNormalizer {

    /** @throws IllegalArgumentException when a score is NaN or infinite, naming the chunk */
    public List<Hit> normalize(List<Hit> hits) {
        if (hits == null || hits.isEmpty()) {
            return List.of();
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Hit h : hits) {
            if (!Double.isFinite(h.score())) {
                throw new IllegalArgumentException("score of " + h.chunkId() + " is not finite: " + h.score());
            }
            min = Math.min(min, h.score());
            max = Math.max(max, h.score());
        }
        double range = max - min;
        List<Hit> out = new ArrayList<>(hits.size());
        for (Hit h : hits) {
            double n = range > 0 ? (h.score() - min) / range : 1.0;
            out.add(new Hit(h.chunkId(), Math.min(1.0, Math.max(0.0, n))));
        }
        return out;
    }
}
