package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import java.util.List;
import java.util.Map;

/**
 * The fused candidates of a query, best first (after the result access step: only those the caller may read).
 *
 * @param expected   the branches the fusion expected: wired by the route and chosen by the plan
 * @param candidates the distinct chunks the fused branches returned, before any threshold: the answer's
 *                   {@code calls.candidates}. Counted before scores are compared, so the index-wide BM25 statistics
 *                   (which count notes the caller may not read) do not move it
 * @param returned   branch key → the hits it returned into the fusion: {@code calls.branches}
 */
public record FusedQuery(PlannedQuery planned, List<Branch> expected, List<FusedCandidate> fused, int candidates,
                         Map<String, Integer> returned, Trace trace) {
    public FusedQuery {
        expected = List.copyOf(expected);
        fused = List.copyOf(fused);
        returned = Map.copyOf(returned);
    }

    public FusedQuery withFused(List<FusedCandidate> kept, Trace newTrace) {
        return new FusedQuery(planned, expected, kept, candidates, returned, newTrace);
    }
}
