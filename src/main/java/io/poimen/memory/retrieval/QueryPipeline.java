package io.poimen.memory.retrieval;

import io.poimen.memory.ops.Availability;
import io.poimen.memory.retrieval.branch.Branch;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.retrieval.filter.NoteCatalog;
import io.poimen.memory.retrieval.filter.NoteFacts;
import io.poimen.memory.retrieval.filter.SearchFilters;
import io.poimen.memory.retrieval.fusion.BranchScore;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import io.poimen.memory.retrieval.fusion.FusionSettings;
import io.poimen.memory.retrieval.query.QueryNormalizer;
import io.poimen.memory.retrieval.query.QueryRouter;
import io.poimen.memory.retrieval.select.CacheAlignedOrder;
import io.poimen.memory.retrieval.select.ChunkMemo;
import io.poimen.memory.retrieval.select.MetadataBooster;
import io.poimen.memory.retrieval.select.SelectionItem;
import io.poimen.memory.retrieval.select.ShingleDeduplicator;
import io.poimen.memory.retrieval.select.TokenBudgetSelector;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.api.StrictJson;
import io.poimen.memory.security.policy.VaultPathGuard;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.camel.Body;
import org.apache.camel.ExchangeProperty;

/**
 * The steps of the query route around the branch multicast: read and check the request, normalise and route
 * the query, scope it by the wiki graph; after fusion, de-duplicate, cut to top-k and the token budget.
 */
public class QueryPipeline {
    static final int MAX_QUERY_CHARS = 4000;

    private final ObjectMapper json;
    private final RetrievalPolicy policy;
    private final GraphService graph;
    private final SearchScopes scopes;
    private final ChunkRows rows;
    private final Availability embedding;
    private final NoteCatalog catalog;
    private final Clock clock;
    private final QueryNormalizer normalizer = new QueryNormalizer();
    private final QueryRouter router = new QueryRouter();
    private final CacheAlignedOrder order = new CacheAlignedOrder();
    private final ChunkMemo<long[]> shingles = ShingleDeduplicator.memo();

    public QueryPipeline(ObjectMapper json, RetrievalPolicy policy, GraphService graph, SearchScopes scopes,
                         ChunkRows rows, Availability embedding, NoteCatalog catalog, Clock clock) {
        this.catalog = catalog;
        this.clock = clock;
        this.json = StrictJson.mapper(json);
        this.policy = policy;
        this.graph = graph;
        this.scopes = scopes;
        this.rows = rows;
        this.embedding = embedding;
    }

    /** Step 1: JSON body → checked request with the effective settings (policy + per-request overrides). */
    public QueryContext parse(byte[] body) {
        long t0 = System.nanoTime();
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("empty body: expected JSON {project, query}");
        }
        QueryRequest req = StrictJson.read(json, body, QueryRequest.class, "query JSON");
        QueryContext ctx = new QueryContext(check(req), effectiveSettings(req));
        ctx.filters = SearchFilters.parse(req.filters(), clock);
        ctx.time("parse", t0);
        return ctx;
    }

    /** Step 2: normalise, route (hybrid / lexical / ...), and scope to the project's wiki graph. */
    public QueryContext plan(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx) {
        long t0 = System.nanoTime();
        ctx.time("access", ctx.startedNanos); // the project check ran between parse and here
        String project = ctx.request.project();
        if (!graph.current().projects().contains(project)) {
            throw ApiException.notFound("unknown project: " + project);
        }
        ctx.query = normalizer.normalize(ctx.request.query());
        ctx.plan = router.route(ctx.query, ctx.request.searchMethod(), embedding.available(),
                ctx.settings.minTokensForHybrid());
        if (!embedding.available() && router.route(ctx.query, ctx.request.searchMethod(), true).runs(Branch.SEMANTIC)) {
            ctx.degrade(Branch.SEMANTIC, "skipped for a cool-down after it failed: " + embedding.lastFailure());
        }
        // only readable notes, reached through readable notes: a denied note never enters a branch's candidates
        ctx.scope = filtered(project, scopes.scope(project, ctx.readable,
                ctx.plan.lexicalFilters() ? ctx.query.tags() : List.of()), ctx.filters);
        ctx.time("plan", t0);
        ctx.mark();
        return ctx;
    }

    /**
     * The scope narrowed to the notes that pass {@code filters}, before any branch runs: each branch (TF-IDF, vector,
     * BM25, on either store) searches only those notes, so top-k fills with matching notes instead of being cut
     * down after the search.
     */
    private SearchScope filtered(String project, SearchScope scope, SearchFilters filters) {
        if (filters.none()) {
            return scope;
        }
        Map<String, NoteFacts> facts = catalog.facts();
        Set<String> kept = new LinkedHashSet<>();
        for (String path : scope.paths()) {
            if (filters.matches(facts.get(path))) {
                kept.add(path);
            }
        }
        return SearchScope.ofProject(project, kept, graph.current().projectNotes(project), scope.tags());
    }

    /** Step 4 (after fusion): tag filter, near-duplicates, top-k, token budget, stable order. */
    public QueryResponse select(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx) {
        long t0 = System.nanoTime();
        ctx.time("result_access", ctx.mark); // the filter of readable results ran between fusion and here
        RetrievalSettings s = ctx.settings;
        List<FusedCandidate> pool = pool(ctx);
        // twice top-k distinct chunks leave the budget room to back-fill; rows are read best first, a batch of
        // that size at a time, until the deduplication keeps enough: most of the pool is never read
        int wanted = 2 * s.topK();
        ShingleDeduplicator dedup = new ShingleDeduplicator(s.shingleSize(), s.jaccard(), shingles);
        Map<String, Chunk> chunks = new HashMap<>();
        Map<String, FusedCandidate> byId = new HashMap<>();
        List<SelectionItem> items = new ArrayList<>();
        List<SelectionItem> distinct = List.of();
        for (int from = 0; from < pool.size() && distinct.size() < wanted; from += wanted) {
            List<FusedCandidate> batch = pool.subList(from, Math.min(pool.size(), from + wanted));
            chunks.putAll(ctx.chunks(batch.stream().map(FusedCandidate::chunkId).toList(), rows));
            for (FusedCandidate c : batch) {
                SelectionItem item = item(ctx, c, chunks.get(c.chunkId()));
                if (item != null) {
                    byId.put(c.chunkId(), c);
                    items.add(item);
                }
            }
            distinct = dedup.deduplicate(items, wanted).kept();
        }
        TokenBudgetSelector.Selection selection = new TokenBudgetSelector().select(distinct, s.topK(), s.budgetTokens());
        // the boosts were applied to the TF-IDF branch's scores; here they are only reported
        List<MetadataBooster.Boost> boosts = BranchSearches.booster(s).boosts(ctx.query, selection.selected());
        ctx.selectable = distinct;
        List<QueryResponse.Result> results = new ArrayList<>(boosts.size());
        for (int i = 0; i < boosts.size(); i++) {
            SelectionItem item = selection.selected().get(i);
            results.add(result(item, chunks.get(item.chunkId()), byId.get(item.chunkId()), boosts.get(i), s.fusion()));
        }
        List<String> context = order.order(selection.selected()).stream().map(SelectionItem::chunkId).toList();
        ctx.time("selection", t0);
        ctx.time("total", ctx.startedNanos);
        ctx.mark();
        return new QueryResponse(ctx.request.project(), ctx.plan.strategy(), ctx.plan.reason(),
                List.copyOf(ctx.degraded.keySet()), ctx.degraded, List.copyOf(results),
                new QueryResponse.Context(context, selection.tokensUsed(), selection.budget()), ctx.timingsMs);
    }

    /**
     * Last step before the JSON: times what ran since selection (the session arrangement, the agent event) as
     * {@code session} and takes {@code total} again, so that the route's total holds every step of the route.
     * With {@code explain: false} the results go without their score breakdowns.
     */
    public QueryResponse answered(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx,
                                  @Body QueryResponse response) {
        ctx.time("session", ctx.mark);
        ctx.time("total", ctx.startedNanos);
        return Boolean.FALSE.equals(ctx.request.explain()) ? response.withoutBreakdowns() : response;
    }

    /**
     * The candidates among {@code ids} of this query: fused (at any rank, so matched by a branch and readable
     * now), in scope and carrying the query's tags. Reads only the rows of those ids not read yet, so a
     * session turn asks for its previous context's chunks and selection stays lazy.
     */
    public List<SelectionItem> candidatesAmong(QueryContext ctx, Collection<String> ids) {
        Set<String> wanted = new HashSet<>(ids);
        List<FusedCandidate> asked = ctx.fused.stream().filter(c -> wanted.contains(c.chunkId())).toList();
        Map<String, Chunk> chunks = ctx.chunks(asked.stream().map(FusedCandidate::chunkId).toList(), rows);
        List<SelectionItem> out = new ArrayList<>();
        for (FusedCandidate c : asked) {
            SelectionItem item = item(ctx, c, chunks.get(c.chunkId()));
            if (item != null) {
                out.add(item);
            }
        }
        return out;
    }

    /** The fused candidates selection starts from, best first. */
    private static List<FusedCandidate> pool(QueryContext ctx) {
        return ctx.fused.subList(0, Math.min(ctx.fused.size(), Math.max(50, 3 * ctx.settings.topK())));
    }

    /** The candidate as a selection item, or null when its row is gone, it is out of scope or lacks a tag. */
    private static SelectionItem item(QueryContext ctx, FusedCandidate c, Chunk chunk) {
        if (chunk == null || !ctx.scope.contains(chunk.path()) || !chunk.tags().containsAll(ctx.scope.tags())) {
            return null;
        }
        return new SelectionItem(c.chunkId(), chunk.path(), chunk.ordinal(), c.score(), chunk.tokens(),
                chunk.text(), chunk.metadata().keyTerms(), chunk.metadata().category());
    }

    private static QueryResponse.Result result(SelectionItem item, Chunk chunk, FusedCandidate fused,
                                               MetadataBooster.Boost boost, FusionSettings fs) {
        Map<String, QueryResponse.BranchPart> parts = new LinkedHashMap<>();
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Map.Entry<Branch, BranchScore> e : fused.components().entrySet()) {
            BranchScore b = e.getValue();
            parts.put(e.getKey().key(), new QueryResponse.BranchPart(b.raw(), b.normalized(), b.rank(), b.weight(),
                    b.contribution()));
            weights.put(e.getKey().key(), b.weight());
        }
        fused.weights().forEach(weights::putIfAbsent); // a query-adaptive fusion's weights for this query
        fs.weights().forEach((b, w) -> weights.putIfAbsent(b.key(), w));
        String reason = fused.reason() + (boost.fired().isEmpty() ? "" : "; tfidf boosts " + boost.fired());
        return new QueryResponse.Result(chunk.id(), chunk.path(), chunk.heading(), chunk.breadcrumb(), chunk.text(),
                item.score(), new QueryResponse.Breakdown(fused.fusion(), weights, parts, fused.score(),
                boost.factor(), boost.fired(), reason));
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
