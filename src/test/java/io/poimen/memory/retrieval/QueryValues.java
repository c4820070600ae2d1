package io.poimen.memory.retrieval;

import io.poimen.memory.index.SearchScope;
import io.poimen.memory.retrieval.filter.SearchFilters;
import io.poimen.memory.retrieval.query.QueryNormalizer;
import io.poimen.memory.retrieval.query.RoutePlan;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.security.policy.Caller;
import java.util.Set;

/** Query values for the step tests: a question on project poimen by the local operator. */
final class QueryValues {
    static final String QUESTION = "why do pods crash";

    private QueryValues() {
    }

    static QueryRequest request() {
        return new QueryRequest("poimen", QUESTION, null, null, null, null, null, null, null);
    }

    static AskedQuery asked() {
        return new AskedQuery(request(), RetrievalSettings.defaults(), SearchFilters.NONE,
                Trace.startedAt(System.nanoTime()));
    }

    static PlannedQuery planned(String strategy, Set<Branch> branches, SearchScope scope) {
        return planned(strategy, branches, scope, QUESTION);
    }

    /** As above, the branches searching {@code text} (the request still asks {@link #QUESTION}). */
    static PlannedQuery planned(String strategy, Set<Branch> branches, SearchScope scope, String text) {
        AskedQuery asked = asked();
        return new PlannedQuery(asked.request(), asked.settings(), QueryCaller.unchecked(Caller.LOCAL_OPERATOR),
                new QueryNormalizer().normalize(text), new RoutePlan(strategy, branches, false, "test"), scope,
                asked.trace(), System.nanoTime());
    }
}
