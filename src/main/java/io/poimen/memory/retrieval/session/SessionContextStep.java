package io.poimen.memory.retrieval.session;

import io.poimen.memory.retrieval.CandidateItems;
import io.poimen.memory.retrieval.ChunkRows;
import io.poimen.memory.retrieval.QueryResponse;
import io.poimen.memory.retrieval.RetrievalSettings;
import io.poimen.memory.retrieval.SelectedQuery;
import io.poimen.memory.retrieval.Trace;
import io.poimen.memory.retrieval.select.ContextPrompt;
import io.poimen.memory.retrieval.select.PromptTokens;
import io.poimen.memory.retrieval.select.SessionContexts;
import io.poimen.memory.retrieval.select.SelectionItem;
import io.poimen.memory.retrieval.select.SessionOrder;
import io.poimen.memory.retrieval.select.SessionSelection;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.Comparator;
import io.poimen.memory.vault.TokenCounter;
import io.poimen.memory.api.ApiException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The query route's step after selection. With a {@code session_id}, orders the context for prompt-cache reuse
 * ({@link SessionOrder}) and reports {@code prefix_reuse}: the common prefix, in tokens of the budget's tokenizer,
 * of this context's prompt ({@link ContextPrompt}, tokens by {@link PromptTokens}) with the session's previous one,
 * over this prompt's tokens.
 * Without one the context keeps its path order. Every answer gets its call plan and is counted per project: its
 * figures ({@link ProjectCacheStats}) and each context chunk's selection ({@link ChunkHits}), in memory.
 * Carried chunks that selection did not read are read here ({@link CandidateItems}): all it needs is in the value.
 */
public class SessionContextStep {
    static final int MAX_SESSION_ID = 256;

    private final SessionContexts sessions;
    private final PromptTokens tokens;
    private final ProjectCacheStats stats;
    private final ChunkHits hits;
    private final double carryShare;
    private final double carryMinScore;
    private final ChunkRows rows;

    public SessionContextStep(SessionContexts sessions, TokenCounter tokens, ProjectCacheStats stats, ChunkHits hits,
                              double carryShare, double carryMinScore, ChunkRows rows) {
        this.hits = hits;
        if (carryShare < 0 || carryShare > 1) {
            throw new IllegalArgumentException("poimen.session.carry-share must be within 0..1, got " + carryShare);
        }
        if (carryMinScore < 0 || !Double.isFinite(carryMinScore)) {
            throw new IllegalArgumentException("poimen.session.carry-min-score must be ≥ 0, got " + carryMinScore);
        }
        this.carryShare = carryShare;
        this.carryMinScore = carryMinScore;
        this.rows = rows;
        this.sessions = sessions;
        this.tokens = new PromptTokens(tokens);
        this.stats = stats;
    }

    /**
     * The results of a carried selection, best score first: the plain results kept, and for a chunk carried from
     * the previous context that the plain selection did not pick, a result saying so.
     */
    private static QueryResponse withResults(QueryResponse response, List<SelectionItem> chosen,
                                             Map<String, QueryResponse.Result> byId, Map<String, Chunk> rows) {
        List<SelectionItem> byScore = new ArrayList<>(chosen);
        byScore.sort(Comparator.comparingDouble(SelectionItem::score).reversed()
                .thenComparing(SelectionItem::chunkId));
        List<QueryResponse.Result> results = new ArrayList<>();
        for (SelectionItem item : byScore) {
            QueryResponse.Result r = byId.get(item.chunkId());
            if (r == null) {
                Chunk chunk = rows.get(item.chunkId());
                r = new QueryResponse.Result(item.chunkId(), item.path(), chunk != null ? chunk.heading() : null,
                        chunk != null ? chunk.breadcrumb() : List.of(), item.text(), item.score(),
                        new QueryResponse.Breakdown("session", Map.of(), Map.of(), item.score(), 1.0, List.of(),
                                "carried from the session's previous context: still a candidate of this query"));
                byId.put(r.docId(), r);
            }
            results.add(r);
        }
        return new QueryResponse(response.project(), response.strategy(), response.route(), response.degraded(),
                response.degradedReasons(), results, response.context(), response.timingsMs(), response.calls());
    }

    public SelectedQuery arrange(SelectedQuery q) {
        long t0 = System.nanoTime();
        QueryResponse response = q.response();
        RetrievalSettings settings = q.fused().planned().settings();
        Map<String, Chunk> known = q.rows();
        Trace trace = q.trace();
        String sessionId = q.request().sessionId();
        if (sessionId != null && sessionId.isBlank()) {
            sessionId = null;
        }
        if (sessionId != null && sessionId.length() > MAX_SESSION_ID) {
            throw ApiException.unprocessable("session_id over " + MAX_SESSION_ID + " characters");
        }
        Map<String, QueryResponse.Result> byId = new HashMap<>();
        response.results().forEach(r -> byId.put(r.docId(), r));
        QueryResponse.Context plain = response.context();
        List<String> order = plain.chunks();
        SessionContexts.Key key = null;
        SessionContexts.Previous previous = null;
        int tokensUsed = plain.tokensUsed();
        if (sessionId != null) {
            key = new SessionContexts.Key(q.fused().planned().caller().caller().subject(), sessionId);
            previous = sessions.previous(key);
            List<String> before = previous == null ? List.of() : previous.chunkIds();
            if (carryShare > 0 && !before.isEmpty()) {
                CandidateItems.Found found = CandidateItems.among(q.fused(), before, known, rows);
                known = found.read().rows();
                if (found.read().degraded() != null) {
                    trace = trace.degrade(ChunkRows.DEGRADED_KEY, found.read().degraded());
                }
                SessionSelection.Result carried = SessionSelection.select(before, found.items(),
                        Set.copyOf(plain.chunks()), q.selectable(), settings.topK(), settings.budgetTokens(),
                        carryShare, carryMinScore);
                order = carried.ordered().stream().map(SelectionItem::chunkId).toList();
                tokensUsed = carried.tokensUsed();
                response = withResults(response, carried.ordered(), byId, known);
            } else {
                List<String> byScore = response.results().stream().map(QueryResponse.Result::docId)
                        .filter(plain.chunks()::contains).toList();
                order = SessionOrder.arrange(before, byScore);
            }
        }
        List<ContextPrompt.Part> prompt = order.stream().map(byId::get)
                .map(r -> new ContextPrompt.Part(r.docId(), r.path(), r.text())).toList();
        int promptTokens;
        int reused = 0;
        Double prefixReuse = null;
        if (key != null) {
            int[] ids = tokens.tokens(prompt);
            promptTokens = ids.length;
            reused = previous == null ? 0 : ContextPrompt.commonPrefix(previous.promptTokens(), ids);
            prefixReuse = promptTokens == 0 ? 0.0 : (double) reused / promptTokens;
            sessions.remember(key, previous, order, ids);
        } else {
            promptTokens = tokens.count(prompt);
        }
        stats.served(response.project(), order.size(), promptTokens, reused);
        hits.selected(response.project(), order);
        int candidates = q.fused().candidates();
        QueryResponse.CallPlan calls = new QueryResponse.CallPlan(candidates, q.fused().returned(), order.size(),
                candidates == 0 ? 0 : 1 - (double) order.size() / candidates);
        QueryResponse arranged = response.withContext(new QueryResponse.Context(order, tokensUsed,
                plain.tokenBudget(), sessionId, key != null ? "session" : "path", promptTokens, prefixReuse), calls);
        return q.with(arranged, known, trace.timed("session", t0));
    }
}
