package io.poimen.memory.index;

/** A candidate from one retrieval branch: a chunk id and the branch's raw score (higher is better). */
public record Hit(String chunkId, double score) {
}
