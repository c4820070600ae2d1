package io.poimen.memory.retrieval;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.ModelScripts;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.ops.RetrievalMetrics;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The fusion the multicast's aggregation strategy runs when the branches are done or the timeout passed. It expects
 * the branches the route wires that the plan chose; it names those that failed or timed out in {@code degraded}
 * and fuses the answers of the others.
 */
public class QueryFusion {
    static final String LATE = "no answer within the branch timeout";
    static final String NO_RESULT = "the branch route answered no BranchResult";

    private final RetrievalMetrics metrics;
    private final ModelScripts modelScripts;
    private final TfIdfIndex tfidf;

    /** With the default embedding model's scripts, without term shares (the adaptive gate keeps no list by them). */
    public QueryFusion(RetrievalMetrics metrics) {
        this(metrics, EmbeddingModelChoice.defaultChoice().scripts(), null);
    }

    /**
     * @param modelScripts the scripts the configured embedding model reads
     * @param tfidf        the TF-IDF index, whose chunk terms and project IDF give the adaptive gate's coverage
     *                     keep each chunk's share of the query's terms (null: the keep does nothing)
     */
    public QueryFusion(RetrievalMetrics metrics, ModelScripts modelScripts, TfIdfIndex tfidf) {
        this.metrics = metrics;
        this.modelScripts = modelScripts;
        this.tfidf = tfidf;
    }

    /** @param wired the branches the multicast of the query's route sends to, in its order */
    public FusedQuery fuse(PlannedQuery q, BranchAnswers answers, List<RouteBranches.Wired> wired) {
        long t0 = System.nanoTime();
        // wall time of the multicast: the slowest branch and the dispatch (it starts as planning ends)
        Trace trace = q.trace().withMs("branches", Trace.millis(t0 - q.plannedNanos()));
        List<Branch> expected = new ArrayList<>();
        List<BranchResult> answered = new ArrayList<>();
        for (RouteBranches.Wired w : wired) {
            Branch b = w.branch();
            if (!q.runs(b)) {
                continue;
            }
            expected.add(b);
            BranchResult r = answers.answers().get(b);
            if (r == null) {
                trace = trace.degrade(b.key(), answers.late().contains(w.position()) ? LATE : NO_RESULT);
            } else if (!r.answered()) {
                trace = trace.degrade(b.key(), r.error()).withMs(b.key(), r.tookMs());
            } else {
                answered.add(r);
                trace = trace.withMs(b.key(), r.tookMs());
            }
            if (r != null) {
                for (Map.Entry<String, Double> step : r.stepsMs().entrySet()) {
                    trace = trace.withMs(step.getKey(), step.getValue());
                }
            }
        }
        int candidates = (int) answered.stream().flatMap(r -> r.hits().stream()).map(Hit::chunkId)
                .filter(Objects::nonNull).distinct().count();
        Map<String, Integer> returned = new TreeMap<>();
        answered.forEach(r -> returned.put(r.branch().key(), r.hits().size()));
        List<FusedCandidate> fused = answered.isEmpty() ? List.of()
                : FusionMethods.of(q.settings().fusion().method(), q.settings().calibration(), q.settings().gate(),
                        modelScripts.reads(q.query().text()), tfidf == null ? null
                                : tfidf.termShares(q.query().terms(), q.request().project(), q.caller().readable()))
                        .fuse(answered, q.settings().fusion());
        trace = trace.timed("fusion", t0);
        metrics.query(expected.stream().map(Branch::key).toList(), trace.timingsMs(), trace.degraded().keySet());
        return new FusedQuery(q, expected, fused, candidates, returned, trace);
    }
}
