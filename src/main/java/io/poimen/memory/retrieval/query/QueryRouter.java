package io.poimen.memory.retrieval.query;

import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.vault.VaultTextAnalyzer;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses the branches for a query. In order:
 * <ol>
 *   <li>a requested {@code search_method} wins: hybrid = all three branches, lexical = BM25, semantic = vectors,
 *       tfidf = TF-IDF (one branch each, so the benchmark can compare them);</li>
 *   <li>{@code #tags} or {@code @mentions} → "lexical-filtered": TF-IDF + BM25 with tag filters;</li>
 *   <li>fewer than {@code min_tokens_for_hybrid} tokens ({@code policies/retrieval.yaml}, default
 *       {@value #MIN_HYBRID_TOKENS}) → "lexical": TF-IDF + BM25 (too little text for an embedding to beat exact
 *       matching); a word of Chinese, Japanese or Korean characters, written without spaces, counts one token per
 *       two characters ({@link VaultTextAnalyzer#words});</li>
 *   <li>embedding unavailable → "lexical";</li>
 *   <li>else "hybrid": all three.</li>
 * </ol>
 * Tags are checked before the token count (the design lists them the other way round): both lead to the same
 * two branches, and checking tags first keeps the filters for a short query such as {@code #k8s crash}.
 * Filters are also kept when a method is requested: the user wrote them.
 */
public class QueryRouter {
    public static final int MIN_HYBRID_TOKENS = 3;
    /** The branches the router chooses among; routes may add others (see {@link RoutePlan#runs}). */
    public static final Set<Branch> BUILT_IN = Set.of(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL);
    private static final Set<Branch> LEXICAL_PAIR = Set.of(Branch.TFIDF, Branch.LEXICAL);

    /**
     * @param requestedMethod    hybrid|lexical|semantic|tfidf, or null/blank to decide from the query
     * @param embeddingAvailable whether a query embedding can be computed now
     * @throws IllegalArgumentException for an unknown method, naming it
     */
    public RoutePlan route(NormalizedQuery query, String requestedMethod, boolean embeddingAvailable) {
        return route(query, requestedMethod, embeddingAvailable, MIN_HYBRID_TOKENS);
    }

    /** @param minTokens the fewest tokens a query needs for the hybrid plan */
    public RoutePlan route(NormalizedQuery query, String requestedMethod, boolean embeddingAvailable,
                           int minTokens) {
        boolean filters = query.hasFilters();
        if (requestedMethod != null && !requestedMethod.isBlank()) {
            return requested(requestedMethod.trim().toLowerCase(Locale.ROOT), filters, embeddingAvailable);
        }
        if (filters) {
            return new RoutePlan("lexical-filtered", LEXICAL_PAIR, true,
                    "query has " + filterText(query) + ": TF-IDF and BM25 with filters");
        }
        int tokens = query.tokens().stream().mapToInt(VaultTextAnalyzer::words).sum();
        if (tokens < minTokens) {
            return new RoutePlan("lexical", LEXICAL_PAIR, false,
                    tokens + " token(s) < " + minTokens + ": TF-IDF and BM25 only");
        }
        if (!embeddingAvailable) {
            return new RoutePlan("lexical", LEXICAL_PAIR, false, "embedding unavailable: TF-IDF and BM25 only");
        }
        return new RoutePlan("hybrid", BUILT_IN, false,
                tokens + " tokens, embedding available: TF-IDF, semantic and BM25");
    }

    private static RoutePlan requested(String method, boolean filters, boolean embeddingAvailable) {
        Set<Branch> branches = switch (method) {
            case "hybrid" -> BUILT_IN;
            case "lexical" -> Set.of(Branch.LEXICAL);
            case "semantic" -> Set.of(Branch.SEMANTIC);
            case "tfidf" -> Set.of(Branch.TFIDF);
            default -> throw new IllegalArgumentException(
                    "search_method must be hybrid, lexical, semantic or tfidf, got '" + method + "'");
        };
        String reason = "search_method=" + method + " requested";
        if (branches.contains(Branch.SEMANTIC) && !embeddingAvailable) {
            reason += "; embedding unavailable, the semantic branch will be reported degraded";
        }
        if (filters) {
            reason += "; tag/mention filters applied";
        }
        return new RoutePlan(method, branches, filters, reason);
    }

    private static String filterText(NormalizedQuery q) {
        StringBuilder sb = new StringBuilder();
        q.tags().forEach(t -> sb.append(sb.isEmpty() ? "" : ", ").append('#').append(t));
        q.mentions().forEach(m -> sb.append(sb.isEmpty() ? "" : ", ").append('@').append(m));
        return sb.toString();
    }
}
