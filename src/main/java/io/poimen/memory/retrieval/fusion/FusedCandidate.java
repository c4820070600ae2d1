package io.poimen.memory.retrieval.fusion;

import io.poimen.memory.retrieval.branch.Branch;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A chunk after fusion.
 *
 * @param chunkId    the chunk
 * @param score      fused score (sum of the components' contributions)
 * @param components the branches that returned the chunk, in the order the fusion was given them
 * @param fusion     name of the fusion method ("adaptive", "calibrated", "weighted" or "rrf")
 * @param weights    branch key → the weight the fusion gave that branch for this query, also for branches that
 *                   did not return this chunk; empty when the method has fixed weights
 * @param why        how the fusion chose those weights, appended to {@link #reason()}; empty for fixed weights
 */
public record FusedCandidate(String chunkId, double score, Map<Branch, BranchScore> components, String fusion,
                             Map<String, Double> weights, String why) {
    public FusedCandidate {
        components = components.isEmpty()
                ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(components));
        weights = weights == null ? Map.of() : Collections.unmodifiableMap(new java.util.TreeMap<>(weights));
        why = why == null ? "" : why;
    }

    public FusedCandidate(String chunkId, double score, Map<Branch, BranchScore> components, String fusion) {
        this(chunkId, score, components, fusion, Map.of(), "");
    }

    /**
     * A short reason for the breakdown, biggest contribution first, e.g.
     * {@code "weighted: lexical #1 (norm 1.00) +0.333, semantic #4 (norm 0.42) +0.210"} (a branch below its
     * threshold shows +0.000).
     */
    public String reason() {
        StringBuilder sb = new StringBuilder(fusion).append(':');
        components.entrySet().stream()
                .sorted(Map.Entry.<Branch, BranchScore>comparingByValue(
                        Comparator.comparingDouble(BranchScore::contribution)).reversed())
                .forEach(e -> {
                    BranchScore s = e.getValue();
                    // Locale.US writes what Locale.ROOT does ('0' digits, '.', '-') without a DecimalFormatSymbols
                    // look-up per number, the costliest part of building a result's breakdown
                    sb.append(sb.charAt(sb.length() - 1) == ':' ? " " : ", ")
                            .append(e.getKey().key()).append(" #").append(s.rank())
                            .append(String.format(Locale.US, " (norm %.2f) +%.3f", s.normalized(), s.contribution()));
                });
        return why.isEmpty() ? sb.toString() : sb.append("; ").append(why).toString();
    }
}
