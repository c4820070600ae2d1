package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.List;

/** Combines the hit lists of several branches into one ranking. */
public interface FusionMethod {

    /**
     * Fuses the branches that answered ({@link BranchResult#answered()}); failed branches are ignored and the
     * weights renormalised over the rest (see {@link FusionSettings}). Result: best first, ties by chunk id.
     */
    List<FusedCandidate> fuse(List<BranchResult> results, FusionSettings settings);

    /** "weighted" or "rrf". */
    String name();
}
