package io.poimen.memory.retrieval.fusion;

/**
 * One branch's part in a fused score.
 *
 * @param raw          the branch's own score (BM25, cosine, TF-IDF)
 * @param normalized   min-max normalised score in [0, 1]
 * @param rank         position in the branch's list, from 1
 * @param weight       the branch's renormalised weight w'_b
 * @param contribution what this branch added to the fused score; 0 when {@code normalized} was below the branch
 *                     threshold
 */
public record BranchScore(double raw, double normalized, int rank, double weight, double contribution) {
}
