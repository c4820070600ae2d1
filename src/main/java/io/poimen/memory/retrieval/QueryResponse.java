package io.poimen.memory.retrieval;

import java.util.List;
import java.util.Map;

/** Answer of {@code POST /memory/query} (serialised snake_case). */
public record QueryResponse(String project, String strategy, String route, List<String> degraded,
                            Map<String, String> degradedReasons, List<Result> results, Context context,
                            Map<String, Double> timingsMs, CallPlan calls) {

    public QueryResponse(String project, String strategy, String route, List<String> degraded,
                         Map<String, String> degradedReasons, List<Result> results, Context context,
                         Map<String, Double> timingsMs) {
        this(project, strategy, route, degraded, degradedReasons, results, context, timingsMs, null);
    }

    public QueryResponse withContext(Context newContext, CallPlan newCalls) {
        return new QueryResponse(project, strategy, route, degraded, degradedReasons, results, newContext, timingsMs,
                newCalls);
    }

    /** The same answer with each result's score breakdown left out ({@code explain: false}). */
    public QueryResponse withoutBreakdowns() {
        List<Result> lean = results.stream().map(r -> new Result(r.docId(), r.path(), r.heading(), r.breadcrumb(),
                r.text(), r.score(), null)).toList();
        return new QueryResponse(project, strategy, route, degraded, degradedReasons, lean, context, timingsMs, calls);
    }

    /** One selected chunk with its score breakdown. */
    public record Result(String docId, String path, String heading, List<String> breadcrumb, String text,
                         double score, Breakdown breakdown) {
    }

    /**
     * How the score came about: each branch's raw and normalised score, rank, weight and contribution, the
     * fusion and its fused score, the metadata boosts that fired, and a one-line reason.
     */
    public record Breakdown(String fusion, Map<String, Double> weights, Map<String, BranchPart> branches,
                            double fusedScore, double boost, List<String> boosts, String reason) {
    }

    public record BranchPart(double raw, double normalized, int rank, double weight, double contribution) {
    }

    /**
     * The chunks to put into the prompt, in cache-aligned order, and their token count. With a {@code session_id}
     * (see {@code retrieval/select/SessionContexts}) also the session, the order used, the tokens of the context
     * serialised as a prompt ({@code ContextPrompt}) and the share of them that is a common prefix with the
     * session's previous context.
     */
    public record Context(List<String> chunks, int tokensUsed, int tokenBudget, String sessionId, String order,
                          Integer promptTokens, Double prefixReuse) {
        public Context(List<String> chunks, int tokensUsed, int tokenBudget) {
            this(chunks, tokensUsed, tokenBudget, null, "path", null, null);
        }
    }

    /**
     * The design notes' {@code MinimizedCallPlan}: candidates considered (the distinct chunks the branches returned,
     * before thresholds), the hits each branch returned (branch key → count), chunks selected, and the call
     * reduction {@code 1 - selected / candidates} (0 without candidates).
     */
    public record CallPlan(int candidates, Map<String, Integer> branches, int selected, double callReduction) {
    }
}
