package io.poimen.memory.retrieval;

import io.poimen.memory.security.ReadableScope;
import io.poimen.memory.security.policy.VaultResource;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import java.util.List;

/**
 * Removes fused candidates the caller may not read. A chunk id is {@code <vault path>#<ordinal>}; its resource is
 * the project, skill or shared folder of the path. A candidate whose resource has no allowing decision is removed
 * (fail closed).
 * The decisions come from the read scope the access door gave the query ({@code Access#scope}).
 */
public final class ResultAccessFilter {
    private ResultAccessFilter() {
    }

    public static String pathOf(String chunkId) {
        int hash = chunkId.lastIndexOf('#');
        return hash < 0 ? chunkId : chunkId.substring(0, hash);
    }

    /** The candidates whose folder the door's read scope allows, each folder decided once (and kept for the audit). */
    public static List<FusedCandidate> readable(List<FusedCandidate> candidates, ReadableScope scope) {
        return candidates.stream().filter(c -> scope.decision(VaultResource.of(pathOf(c.chunkId()))).allowed())
                .toList();
    }
}
