package io.poimen.memory.retrieval;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.ModelScripts;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.filter.NoteCatalog;
import io.poimen.memory.retrieval.filter.NoteFacts;
import io.poimen.memory.retrieval.filter.SearchFilters;
import io.poimen.memory.retrieval.fusion.AdaptiveFusion;
import io.poimen.memory.retrieval.query.NormalizedQuery;
import io.poimen.memory.retrieval.query.QueryNormalizer;
import io.poimen.memory.retrieval.query.QueryRouter;
import io.poimen.memory.retrieval.query.RoutePlan;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Query step 3: normalise, route (hybrid / lexical / ...), and scope to the readable notes of the project's graph. */
public class PlanStep {
    private final GraphService graph;
    private final SearchScopes scopes;
    private final Availability embedding;
    private final NoteCatalog catalog;
    private final ModelScripts modelScripts;
    private final QueryNormalizer normalizer = new QueryNormalizer();
    private final QueryRouter router = new QueryRouter();

    /** With the default embedding model's scripts. */
    public PlanStep(GraphService graph, SearchScopes scopes, Availability embedding, NoteCatalog catalog) {
        this(graph, scopes, embedding, catalog, EmbeddingModelChoice.defaultChoice().scripts());
    }

    /** @param modelScripts the scripts the configured embedding model reads */
    public PlanStep(GraphService graph, SearchScopes scopes, Availability embedding, NoteCatalog catalog,
                    ModelScripts modelScripts) {
        this.graph = graph;
        this.scopes = scopes;
        this.embedding = embedding;
        this.catalog = catalog;
        this.modelScripts = modelScripts;
    }

    public PlannedQuery plan(AllowedQuery allowed) {
        long t0 = System.nanoTime();
        AskedQuery asked = allowed.asked();
        QueryRequest request = asked.request();
        String project = request.project();
        if (!graph.current().projects().contains(project)) {
            throw ApiException.notFound("unknown project: " + project);
        }
        Trace trace = allowed.trace();
        NormalizedQuery query = normalizer.normalize(request.query());
        RoutePlan plan = router.route(query, request.searchMethod(), embedding.available(),
                asked.settings().minTokensForHybrid());
        if (!embedding.available() && router.route(query, request.searchMethod(), true).runs(Branch.SEMANTIC)) {
            trace = trace.degrade(Branch.SEMANTIC.key(),
                    "skipped for a cool-down after it failed: " + embedding.lastFailure());
        }
        plan = withoutAnUnreadDenseList(plan, query, asked.settings());
        // only readable notes, reached through readable notes: a denied note never enters a branch's candidates
        SearchScope scope = filtered(project, scopes.scope(project, allowed.caller().readable(),
                plan.lexicalFilters() ? query.tags() : List.of()), asked.filters());
        long end = System.nanoTime();
        return new PlannedQuery(request, asked.settings(), allowed.caller(), query, plan, scope,
                trace.withMs("plan", Trace.millis(end - t0)), end);
    }

    /**
     * The plan without the semantic branch when the adaptive fusion would give it no weight anyway: the query is
     * written in a script the embedding model does not read ({@code fusion.adaptive.model_scripts}) and another
     * branch runs. The query is then not embedded and no vector search runs; a plan of the semantic branch alone,
     * or another fusion method, is left as it is.
     */
    RoutePlan withoutAnUnreadDenseList(RoutePlan plan, NormalizedQuery query, RetrievalSettings settings) {
        if (!plan.branches().contains(Branch.SEMANTIC) || plan.branches().size() < 2
                || !AdaptiveFusion.NAME.equals(settings.fusion().method()) || !settings.gate().modelScripts()
                || modelScripts.reads(query.text())) {
            return plan;
        }
        Set<Branch> rest = new LinkedHashSet<>(plan.branches());
        rest.remove(Branch.SEMANTIC);
        return new RoutePlan(plan.strategy(), rest, plan.lexicalFilters(),
                plan.reason() + "; query script not read by the embedding model: semantic branch not run");
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
}
