package io.poimen.memory.retrieval;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.api.StrictJson;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.filter.SearchFilters;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import io.poimen.memory.retrieval.fusion.FusionSettings;
import io.poimen.memory.security.policy.VaultPathGuard;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Query step 1: JSON body → checked request with the effective settings (policy + per-request overrides). */
public class ParseStep {
    static final int MAX_QUERY_CHARS = 4000;

    private final ObjectMapper json;
    private final RetrievalPolicy policy;
    private final Clock clock;

    public ParseStep(ObjectMapper json, RetrievalPolicy policy, Clock clock) {
        this.json = StrictJson.mapper(json);
        this.policy = policy;
        this.clock = clock;
    }

    public AskedQuery parse(byte[] body) {
        long t0 = System.nanoTime();
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("empty body: expected JSON {project, query}");
        }
        QueryRequest req = check(StrictJson.read(json, body, QueryRequest.class, "query JSON"));
        RetrievalSettings settings = effectiveSettings(req);
        SearchFilters filters = SearchFilters.parse(req.filters(), clock);
        return new AskedQuery(req, settings, filters, Trace.startedAt(t0).timed("parse", t0));
    }

    private static QueryRequest check(QueryRequest r) {
        if (r.project() == null || r.project().isBlank()) {
            throw ApiException.badRequest("project is required");
        }
        if (r.query() == null || r.query().isBlank()) {
            throw ApiException.badRequest("query is required");
        }
        VaultPathGuard.projectName(r.project());
        checkId("agent_id", r.agentId(), 128, true);
        checkId("session_id", r.sessionId(), 256, false);
        if (r.query().length() > MAX_QUERY_CHARS) {
            throw new ApiException(413, "query_too_long", "query over " + MAX_QUERY_CHARS + " characters");
        }
        if (r.topK() != null && (r.topK() < 1 || r.topK() > 100)) {
            throw ApiException.unprocessable("top_k must be between 1 and 100, got " + r.topK());
        }
        if (r.budgetTokens() != null && (r.budgetTokens() < 1 || r.budgetTokens() > 200_000)) {
            throw ApiException.unprocessable("budget_tokens must be between 1 and 200000, got " + r.budgetTokens());
        }
        if (r.searchMethod() != null && !Set.of("hybrid", "lexical", "semantic", "tfidf").contains(r.searchMethod())) {
            throw ApiException.unprocessable("search_method must be hybrid, lexical, semantic or tfidf, got "
                    + r.searchMethod());
        }
        if (r.fusion() != null && !FusionMethods.names().contains(r.fusion())) {
            throw ApiException.unprocessable("fusion must be one of " + FusionMethods.names() + ", got " + r.fusion());
        }
        return r;
    }

    private static void checkId(String field, String id, int max, boolean noSlash) {
        if (id == null) {
            return;
        }
        if (id.isBlank() || id.length() > max || id.chars().anyMatch(c -> c < 0x20 || c == 0x7f)
                || (noSlash && id.indexOf('/') >= 0)) {
            throw ApiException.badRequest(field + " must be a non-empty string of at most " + max
                    + " characters without control characters" + (noSlash ? " or '/'" : ""));
        }
    }

    private RetrievalSettings effectiveSettings(QueryRequest r) {
        RetrievalSettings s = policy.current();
        FusionSettings f = s.fusion();
        if (r.fusion() != null) {
            f = f.withMethod(r.fusion());
        }
        if (r.weights() != null && !r.weights().isEmpty()) {
            try {
                Map<Branch, Double> overrides = new LinkedHashMap<>();
                r.weights().forEach((name, w) -> overrides.put(Branch.ofKey(name), w));
                f = f.withWeights(overrides);
            } catch (IllegalArgumentException e) {
                throw ApiException.unprocessable(e.getMessage());
            }
        }
        return new RetrievalSettings(f, s.keyTermBoost(), s.categoryBoost(), s.candidatesPerBranch(),
                r.topK() != null ? r.topK() : s.topK(),
                r.budgetTokens() != null ? r.budgetTokens() : s.budgetTokens(), s.shingleSize(), s.jaccard(),
                s.calibration(), s.minTokensForHybrid(), s.gate(), s.recencyAndHits());
    }
}
