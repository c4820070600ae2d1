package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.retrieval.Branch;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A chunk after fusion.
 *
 * @param chunkId    the chunk
 * @param score      fused score (sum of the components' contributions)
 * @param components the branches that returned the chunk, in {@link Branch} order
 * @param fusion     name of the fusion method ("weighted" or "rrf")
 */
public record FusedCandidate(String chunkId, double score, Map<Branch, BranchScore> components, String fusion) {
    public FusedCandidate {
        components = components.isEmpty()
                ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(components));
    }
}
