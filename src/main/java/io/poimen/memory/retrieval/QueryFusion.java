package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.index.Hit;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.support.ExchangeHelper;

/**
 * The fusion step after the branch multicast. It expects the branches the route wires (read from the route model,
 * so an edited route counts at once) that the plan chose; it names those that failed or timed out in
 * {@code degraded} and fuses the answers of the others.
 */
public class QueryFusion {
    static final String LATE = "no answer within the branch timeout";
    static final String NO_RESULT = "the branch route answered no BranchResult";

    private final RetrievalMetrics metrics;
    private final RouteBranches routes;

    public QueryFusion(RetrievalMetrics metrics, RouteBranches routes) {
        this.metrics = metrics;
        this.routes = routes;
    }

    /** Fuses the branches that the multicast of the current route wired. */
    public QueryContext fuse(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        return fuse(ctx, routes.wired(exchange.getContext(), ExchangeHelper.getRouteId(exchange)));
    }

    QueryContext fuse(QueryContext ctx, List<RouteBranches.Wired> wired) {
        long t0 = System.nanoTime();
        ctx.time("branches", ctx.mark); // wall time of the multicast: the slowest branch and the dispatch
        List<Branch> expected = new ArrayList<>();
        List<BranchResult> answered = new ArrayList<>();
        for (RouteBranches.Wired w : wired) {
            Branch b = w.branch();
            if (!ctx.runs(b)) {
                continue;
            }
            expected.add(b);
            BranchResult r = ctx.answer(b);
            if (r == null) {
                ctx.degrade(b, ctx.late.contains(w.position()) ? LATE : NO_RESULT);
            } else if (!r.answered()) {
                ctx.degrade(b, r.error());
                ctx.timingsMs.put(b.key(), r.tookMs());
            } else {
                answered.add(r);
                ctx.timingsMs.put(b.key(), r.tookMs());
            }
        }
        ctx.expected = List.copyOf(expected);
        ctx.candidates = (int) answered.stream().flatMap(r -> r.hits().stream()).map(Hit::chunkId)
                .filter(java.util.Objects::nonNull).distinct().count();
        Map<String, Integer> returned = new TreeMap<>();
        answered.forEach(r -> returned.put(r.branch().key(), r.hits().size()));
        ctx.returned = returned;
        ctx.fused = answered.isEmpty() ? List.of()
                : FusionMethods.of(ctx.settings.fusion().method(), ctx.settings.calibration(), ctx.settings.gate())
                        .fuse(answered, ctx.settings.fusion());
        ctx.time("fusion", t0);
        ctx.mark();
        metrics.query(ctx.expected.stream().map(Branch::key).toList(), ctx.timingsMs, ctx.degraded.keySet());
        return ctx;
    }
}
