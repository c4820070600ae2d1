package io.poimen.memory.index.tfidf;

import io.poimen.memory.index.Hit;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/** Keeps the best {@code k} hits: score descending, ties by chunk id ascending. */
final class TopHits {
    private final int k;
    private final PriorityQueue<Hit> worstFirst = new PriorityQueue<>(Hit.BEST_FIRST.reversed());

    TopHits(int k) {
        this.k = k;
    }

    /** False when a hit of {@code score} could not enter: the caller may skip any costlier check of it. */
    boolean mayEnter(double score) {
        return worstFirst.size() < k || score >= worstFirst.peek().score();
    }

    void offer(String chunkId, double score) {
        if (worstFirst.size() == k) {
            Hit worst = worstFirst.peek();
            if (score < worst.score() || (score == worst.score() && chunkId.compareTo(worst.chunkId()) > 0)) {
                return;
            }
            worstFirst.poll();
        }
        worstFirst.add(new Hit(chunkId, score));
    }

    List<Hit> best() {
        List<Hit> out = new ArrayList<>(worstFirst);
        out.sort(Hit.BEST_FIRST);
        return out;
    }
}
