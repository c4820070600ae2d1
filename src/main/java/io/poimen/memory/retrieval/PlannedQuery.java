package io.poimen.memory.retrieval;

import io.poimen.memory.index.SearchScope;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.query.NormalizedQuery;
import io.poimen.memory.retrieval.query.RoutePlan;

/**
 * A query ready for the branches: normalised, routed and scoped to readable notes of the project's wiki graph. The
 * branches read it from the exchange property {@link #PROPERTY}.
 *
 * @param plannedNanos when planning ended: the branch multicast starts right after it
 */
public record PlannedQuery(QueryRequest request, RetrievalSettings settings, QueryCaller caller,
                           NormalizedQuery query, RoutePlan plan, SearchScope scope, Trace trace, long plannedNanos) {
    public static final String PROPERTY = "plannedQuery";

    public boolean runs(Branch branch) {
        return plan.runs(branch);
    }
}
