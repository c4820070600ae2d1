package io.poimen.memory.vault;

import java.util.List;

/** Chunk-level metadata used by the TF-IDF metadata scope and the retrieval boosts. */
public record ChunkMetadata(String heading, String firstSentence, List<String> keyTerms, String category) {
    public static final String ERROR = "error";
    public static final String SOLUTION = "solution";
    public static final String TOOL = "tool";
    public static final String CONCEPT = "concept";
}
