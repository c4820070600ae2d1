package io.poimen.memory.retrieval;

import java.util.List;
import java.util.Map;

/** Answer of {@code POST /memory/query} (serialised snake_case). */
public record QueryResponse(String project, String strategy, String route, List<String> degraded,
                            Map<String, String> degradedReasons, List<Result> results, Context context,
                            Map<String, Double> timingsMs) {

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

    /** The chunks to put into the prompt, in cache-aligned order, and their token count. */
    public record Context(List<String> chunks, int tokensUsed, int tokenBudget) {
    }
}
