package io.poimen.memory.retrieval.session;

import io.poimen.memory.retrieval.QueryContext;
import io.poimen.memory.retrieval.QueryPipeline;
import io.poimen.memory.retrieval.QueryResponse;
import io.poimen.memory.retrieval.select.ContextPrompt;
import io.poimen.memory.retrieval.select.PromptTokens;
import io.poimen.memory.retrieval.select.SessionContexts;
import io.poimen.memory.retrieval.select.SelectionItem;
import io.poimen.memory.retrieval.select.SessionOrder;
import io.poimen.memory.retrieval.select.SessionSelection;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.Comparator;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.vault.TokenCounter;
import io.poimen.memory.api.ApiException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;

/**
 * The query route's step after selection. With a {@code session_id}, orders the context for prompt-cache reuse
 * ({@link SessionOrder}) and reports {@code prefix_reuse}: the common prefix, in tokens of the budget's tokenizer,
 * of this context's prompt ({@link ContextPrompt}, tokens by {@link PromptTokens}) with the session's previous one,
 * over this prompt's tokens.
 * Without one the context keeps its path order. Every answer gets its call plan and is counted per project: its
 * figures ({@link ProjectCacheStats}) and each context chunk's selection ({@link ChunkHits}), in memory.
 */
public class SessionContextStep {
    static final int MAX_SESSION_ID = 256;

    private final SessionContexts sessions;
    private final CallerResolver callers;
    private final PromptTokens tokens;
    private final ProjectCacheStats stats;
    private final ChunkHits hits;
    private final double carryShare;
    private final double carryMinScore;
    private final QueryPipeline pipeline;

    public SessionContextStep(SessionContexts sessions, CallerResolver callers, TokenCounter tokens,
                              ProjectCacheStats stats, ChunkHits hits, double carryShare, double carryMinScore,
                              QueryPipeline pipeline) {
        this.hits = hits;
        if (carryShare < 0 || carryShare > 1) {
            throw new IllegalArgumentException("poimen.session.carry-share must be within 0..1, got " + carryShare);
        }
        if (carryMinScore < 0 || !Double.isFinite(carryMinScore)) {
            throw new IllegalArgumentException("poimen.session.carry-min-score must be ≥ 0, got " + carryMinScore);
        }
        this.carryShare = carryShare;
        this.carryMinScore = carryMinScore;
        this.pipeline = pipeline;
        this.sessions = sessions;
        this.callers = callers;
        this.tokens = new PromptTokens(tokens);
        this.stats = stats;
    }

    /**
     * The results of a carried selection, best score first: the plain results kept, and for a chunk carried from
     * the previous context that the plain selection did not pick, a result saying so.
     */
    private static QueryResponse withResults(QueryResponse response, List<SelectionItem> chosen,
                                             Map<String, QueryResponse.Result> byId, QueryContext ctx) {
        List<SelectionItem> byScore = new ArrayList<>(chosen);
        byScore.sort(Comparator.comparingDouble(SelectionItem::score).reversed()
                .thenComparing(SelectionItem::chunkId));
        List<QueryResponse.Result> results = new ArrayList<>();
        for (SelectionItem item : byScore) {
            QueryResponse.Result r = byId.get(item.chunkId());
            if (r == null) {
                Chunk chunk = ctx.chunkRow(item.chunkId());
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

    public QueryResponse arrange(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx,
                                 @Body QueryResponse response, Exchange exchange) {
        String sessionId = ctx.request.sessionId();
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
            key = new SessionContexts.Key(callers.caller(exchange).subject(), sessionId);
            previous = sessions.previous(key);
            List<String> before = previous == null ? List.of() : previous.chunkIds();
            if (carryShare > 0 && !before.isEmpty()) {
                SessionSelection.Result carried = SessionSelection.select(before,
                        pipeline.candidatesAmong(ctx, before), Set.copyOf(plain.chunks()), ctx.selectable,
                        ctx.settings.topK(), ctx.settings.budgetTokens(), carryShare, carryMinScore);
                order = carried.ordered().stream().map(SelectionItem::chunkId).toList();
                tokensUsed = carried.tokensUsed();
                response = withResults(response, carried.ordered(), byId, ctx);
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
        int candidates = ctx.candidates;
        QueryResponse.CallPlan calls = new QueryResponse.CallPlan(candidates, ctx.returned, order.size(),
                candidates == 0 ? 0 : 1 - (double) order.size() / candidates);
        return response.withContext(new QueryResponse.Context(order, tokensUsed, plain.tokenBudget(),
                sessionId, key != null ? "session" : "path", promptTokens, prefixReuse), calls);
    }
}
