package io.poimen.memory.retrieval;

import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.VaultResource;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Removes fused candidates the caller may not read. A chunk id is {@code <vault path>#<ordinal>}; its resource is
 * the project, skill or shared folder of the path. A candidate whose resource has no allowing decision is removed
 * (fail closed).
 */
public final class ResultAccessFilter {
    private ResultAccessFilter() {
    }

    public static String pathOf(String chunkId) {
        int hash = chunkId.lastIndexOf('#');
        return hash < 0 ? chunkId : chunkId.substring(0, hash);
    }

    /** The distinct resources of the candidates, in first-seen order. */
    public static Set<VaultResource> resources(List<FusedCandidate> candidates) {
        Set<VaultResource> out = new LinkedHashSet<>();
        candidates.forEach(c -> out.add(VaultResource.of(pathOf(c.chunkId()))));
        return out;
    }

    public static List<FusedCandidate> readable(List<FusedCandidate> candidates,
                                                Map<VaultResource, AccessDecision> decisions) {
        return candidates.stream().filter(c -> {
            AccessDecision d = decisions.get(VaultResource.of(pathOf(c.chunkId())));
            return d != null && d.allowed();
        }).toList();
    }
}
