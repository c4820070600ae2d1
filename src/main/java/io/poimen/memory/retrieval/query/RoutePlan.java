package io.poimen.memory.retrieval.query;

import io.poimen.memory.retrieval.branch.Branch;
import java.util.Objects;
import java.util.Set;

/**
 * Which branches a query runs on. The router chooses among the built-in branches; a branch that a route adds
 * (any other name) runs with every hybrid plan.
 *
 * @param strategy       name reported in the response: hybrid, lexical, lexical-filtered, semantic or tfidf
 * @param branches       built-in branches to fan out to (never empty)
 * @param lexicalFilters true when the lexical branches must filter by the query's tags and mentions
 * @param reason         one sentence on why this plan was chosen
 */
public record RoutePlan(String strategy, Set<Branch> branches, boolean lexicalFilters, String reason) {
    public RoutePlan {
        Objects.requireNonNull(strategy, "strategy");
        if (branches == null || branches.isEmpty()) {
            throw new IllegalArgumentException("a route plan needs at least one branch");
        }
        branches = Set.copyOf(branches);
    }

    public boolean runs(Branch branch) {
        return branches.contains(branch) || "hybrid".equals(strategy) && !QueryRouter.BUILT_IN.contains(branch);
    }
}
