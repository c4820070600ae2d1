package io.poimen.memory.retrieval;

import java.util.List;

/**
 * Last query step before the JSON: the answer with every step's time and the route's {@code total}, and what was
 * degraded on the way. With {@code explain: false} the results go without their score breakdowns.
 */
public class AnswerStep {

    public QueryResponse answer(SelectedQuery q) {
        Trace trace = q.trace().totalled();
        QueryResponse r = q.response();
        QueryResponse answer = new QueryResponse(r.project(), r.strategy(), r.route(),
                List.copyOf(trace.degraded().keySet()), trace.degraded(), r.results(), r.context(),
                trace.timingsMs(), r.calls());
        return Boolean.FALSE.equals(q.request().explain()) ? answer.withoutBreakdowns() : answer;
    }
}
