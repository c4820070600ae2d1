package io.poimen.memory.retrieval;

import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import java.util.ArrayList;
import java.util.List;

/** Names the branches that failed or timed out, then fuses the answers of the others. */
public class QueryFusion {
    private final RetrievalMetrics metrics;

    public QueryFusion(RetrievalMetrics metrics) {
        this.metrics = metrics;
    }

    public void fuse(QueryContext ctx) {
        long t0 = System.nanoTime();
        ctx.time("branches", ctx.mark); // wall time of the multicast: the slowest branch and the dispatch
        List<BranchResult> answered = new ArrayList<>();
        for (Branch b : Branch.values()) {
            if (!ctx.runs(b)) {
                continue;
            }
            BranchResult r = ctx.answers.get(b);
            if (r == null) {
                ctx.degrade(b, "no answer within the branch timeout");
            } else if (!r.answered()) {
                ctx.degrade(b, r.error());
                ctx.timingsMs.put(b.key(), r.tookMs());
            } else {
                answered.add(r);
                ctx.timingsMs.put(b.key(), r.tookMs());
            }
        }
        ctx.fused = answered.isEmpty() ? List.of()
                : FusionMethods.of(ctx.settings.fusion().method(), ctx.settings.calibration())
                        .fuse(answered, ctx.settings.fusion());
        ctx.time("fusion", t0);
        ctx.mark();
        metrics.query(ctx);
    }
}
