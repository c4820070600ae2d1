package io.poimen.memory.retrieval.select;

import java.util.List;
import java.util.Objects;

/**
 * A fused candidate with what selection needs to know about its chunk.
 *
 * @param chunkId  chunk id ({@code <path>#<ordinal>})
 * @param path     vault path of the note
 * @param ordinal  position of the chunk in its note, from 0
 * @param score    current score (fused, then boosted); higher is better
 * @param tokens   token count of {@code text}
 * @param text     chunk text
 * @param keyTerms the chunk's key terms
 * @param category error, solution, tool or concept (may be null)
 */
public record SelectionItem(String chunkId, String path, int ordinal, double score, int tokens, String text,
                            List<String> keyTerms, String category) {
    public SelectionItem {
        Objects.requireNonNull(chunkId, "chunkId");
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("score of " + chunkId + " is not finite: " + score);
        }
        if (tokens < 0) {
            throw new IllegalArgumentException("token count of " + chunkId + " is negative: " + tokens);
        }
        path = path == null ? "" : path;
        text = text == null ? "" : text;
        keyTerms = keyTerms == null ? List.of() : List.copyOf(keyTerms);
    }

    public SelectionItem withScore(double newScore) {
        return new SelectionItem(chunkId, path, ordinal, newScore, tokens, text, keyTerms, category);
    }

    /** Best first, ties by chunk id: the one order every selection step uses. */
    static int byScoreDesc(SelectionItem a, SelectionItem b) {
        int c = Double.compare(b.score, a.score);
        return c != 0 ? c : a.chunkId.compareTo(b.chunkId);
    }
}
