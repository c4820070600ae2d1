package io.poimen.memory.retrieval;

import java.util.Map;

/**
 * Body of {@code POST /memory/query} (snake_case JSON). Optional fields override {@code policies/retrieval.yaml}
 * for this request only. {@code explain} false leaves each result's score breakdown out (default: in).
 * {@code filters} restrict the notes that may answer ({@link io.poimen.memory.retrieval.filter.SearchFilters}).
 */
public record QueryRequest(String project, String query, Integer topK, Integer budgetTokens, String searchMethod,
                           String fusion, Map<String, Double> weights, String agentId, String sessionId,
                           Boolean explain, Map<String, Object> filters) {

    public QueryRequest(String project, String query, Integer topK, Integer budgetTokens, String searchMethod,
                        String fusion, Map<String, Double> weights, String agentId, String sessionId) {
        this(project, query, topK, budgetTokens, searchMethod, fusion, weights, agentId, sessionId, null, null);
    }
}
