package io.poimen.memory.index.opensearch;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.LexicalQueryPlan;
import io.poimen.memory.index.lucene.QueryTokens;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.LinkText;
import io.poimen.memory.vault.VaultTextAnalyzer;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.aggregations.FiltersBucket;
import org.opensearch.client.opensearch._types.query_dsl.BoolQuery;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.BulkRequest;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch._types.SortOptions;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch.core.SearchRequest;
import org.opensearch.client.opensearch.core.search.TrackHits;
import org.opensearch.client.opensearch.generic.Body;
import org.opensearch.client.opensearch.generic.Request;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.opensearch.generic.Response;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;

/**
 * BM25 lexical index of chunks in one OpenSearch index (default {@value #DEFAULT_INDEX}).
 *
 * <p>The same analysis and query as the embedded Lucene index, so both stores rank alike: the text fields use the
 * custom analyzer {@link VaultTextAnalyzer#OPENSEARCH_NAME}, the same Lucene filters as {@link VaultTextAnalyzer},
 * declared in the index settings; a query is analysed here with the same chain and sent as the
 * {@link LexicalQueryPlan}'s term clauses (a {@code dis_max} over {@code content^2, breadcrumb, source, heading, links},
 * ×3, with the field tie-breaker as its {@code tie_breaker}) plus, with typo tolerance on, {@code fuzzy} clauses
 * for the terms no text field of a chunk in scope holds. Which terms those are is answered by the exact search
 * itself (each candidate's clauses are named, and a candidate some hit matched is held; only candidates no hit
 * matched are counted in scope by a second request), so a query whose terms its hits hold costs one search and no
 * fuzzy expansion; one with a typo is counted, then searched again with the fuzzy clauses. Hits are sorted by
 * score, then chunk id. Scope and tags are non-scoring {@code filter}s: {@code terms} on the {@code path} keyword
 * (split into several {@code terms} queries beyond OpenSearch's 65,536-term limit) and one {@code term} per
 * required tag. Every client failure surfaces as {@link OpenSearchIndexException}. Each search records OpenSearch's
 * own time for it ({@link #engineTime}).
 */
public class OpenSearchLexicalIndex implements LexicalIndex {
    public static final String DEFAULT_INDEX = "vault-chunks";
    private static final int BULK_BATCH = 500;
    /** Searches of a project filter repeated for chunks of notes newer than the scope (see {@link #search}). */
    private static final int MAX_UNKNOWN_ROUNDS = 3;
    /** OpenSearch's default {@code index.max_terms_count}: the most values one {@code terms} query may carry. */
    static final int MAX_TERMS_COUNT = 65_536;
    /** The {@link #engineTime} timer. */
    public static final String ENGINE_TIME = "poimen.lexical.opensearch.took";
    private static final String STORED = "stored";
    /** Names a typo candidate's clauses in the exact search, and its count when no hit held it ({@link #unheld}). */
    private static final String HELD = "held";
    /** The hits' total is never read, so the engine is not asked to count it. */
    private static final TrackHits NO_TOTAL = TrackHits.of(t -> t.enabled(false));
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The {@code refresh_interval} that turns the periodic refresh off. */
    private static final String DISABLED = "-1";
    private static final List<SortOptions> BY_SCORE_THEN_ID = List.of(
            SortOptions.of(o -> o.score(sc -> sc.order(SortOrder.Desc))),
            SortOptions.of(o -> o.field(f -> f.field("chunk_id").order(SortOrder.Asc))));

    /**
     * Index settings.
     *
     * @param indexName index to use, lower case
     * @param shards    primary shards when the index is created
     * @param replicas  replicas when the index is created
     * @param refresh   refresh policy of each write ({@link Refresh#False} in the hub, whose ingest run makes its
     *                  writes searchable once at its end, {@link #makeSearchable}; {@link Refresh#WaitFor} in tests
     *                  that search right after a write of their own)
     */
    public record Options(String indexName, int shards, int replicas, Refresh refresh) {
        public Options {
            if (indexName == null || indexName.isBlank() || !indexName.equals(indexName.toLowerCase())) {
                throw new IllegalArgumentException("OpenSearch index name must be non-blank lower case: " + indexName);
            }
            if (shards < 1 || replicas < 0) {
                throw new IllegalArgumentException("shards must be >= 1 and replicas >= 0, got " + shards + "/" + replicas);
            }
            Objects.requireNonNull(refresh, "refresh");
        }

        public static Options defaults() {
            return new Options(DEFAULT_INDEX, 1, 0, Refresh.False);
        }

        public Options withIndexName(String name) {
            return new Options(name, shards, replicas, refresh);
        }

        public Options withRefresh(Refresh policy) {
            return new Options(indexName, shards, replicas, policy);
        }
    }

    private final OpenSearchClient client;
    private final Options options;
    private final boolean typoTolerant;
    private final float fieldTieBreaker;
    private final Timer engineTime;
    /** Whether this process began a bulk load that has not ended, and the refresh interval the index had before. */
    private volatile boolean bulkLoading;
    private volatile String intervalBeforeBulk;

    public OpenSearchLexicalIndex(OpenSearchClient client) {
        this(client, Options.defaults());
    }

    public OpenSearchLexicalIndex(OpenSearchClient client, String indexName) {
        this(client, Options.defaults().withIndexName(indexName));
    }

    public OpenSearchLexicalIndex(OpenSearchClient client, Options options) {
        this(client, options, true);
    }

    /** @param fuzzy whether a query term no text field holds gets the typo-tolerant clause */
    public OpenSearchLexicalIndex(OpenSearchClient client, Options options, boolean fuzzy) {
        this(client, options, fuzzy, new SimpleMeterRegistry());
    }

    /** @param registry where the engine's time per search is recorded ({@link #engineTime}) */
    public OpenSearchLexicalIndex(OpenSearchClient client, Options options, boolean fuzzy, MeterRegistry registry) {
        this(client, options, fuzzy, 0, registry);
    }

    /**
     * @param fieldTieBreaker what the other fields add to the best field's score
     *                        ({@code poimen.lexical.field-tie-breaker})
     */
    public OpenSearchLexicalIndex(OpenSearchClient client, Options options, boolean fuzzy, double fieldTieBreaker,
                                  MeterRegistry registry) {
        this.client = Objects.requireNonNull(client, "client");
        this.options = Objects.requireNonNull(options, "options");
        this.typoTolerant = fuzzy;
        this.fieldTieBreaker = (float) fieldTieBreaker;
        this.engineTime = Timer.builder(ENGINE_TIME)
                .description("OpenSearch's own time (took) of a lexical search, summed over its requests")
                .tag("index", options.indexName())
                .publishPercentileHistogram()
                .register(registry);
    }

    /**
     * OpenSearch's own time per {@link #search}: the {@code took} its answers report, summed over the search's
     * requests (the engine's share of the lexical step, beside the step's own time in {@code poimen.query.branch}).
     */
    public Timer engineTime() {
        return engineTime;
    }

    public String indexName() {
        return options.indexName();
    }

    /** Creates the index with the chunk mapping and analysis unless it exists. Returns true when it was created. */
    public boolean ensureIndex() {
        String index = options.indexName();
        return call("create index", () -> {
            if (client.indices().exists(e -> e.index(index)).value()) {
                return false;
            }
            Request create = Requests.builder().method("PUT").endpoint("/" + index)
                    .json(JSON.writeValueAsString(indexDefinition(options))).build();
            try (Response response = client.generic().execute(create)) {
                String body = response.getBody().map(Body::bodyAsString).orElse("");
                if (response.getStatus() / 100 == 2) {
                    return true;
                }
                if (body.contains("resource_already_exists_exception")) {
                    return false; // created concurrently by another instance
                }
                throw new IOException("status " + response.getStatus() + ": " + body);
            }
        });
    }

    /**
     * Settings and mappings of a new index: {@code content}, {@code breadcrumb}, {@code heading} and {@code links} analysed with
     * {@link VaultTextAnalyzer}'s chain, {@code source} (the path) with the standard analyzer, as in
     * {@link LexicalQueryPlan#analyzer()}.
     */
    static Map<String, Object> indexDefinition(Options options) {
        Map<String, Object> text = Map.of("type", "text", "analyzer", VaultTextAnalyzer.OPENSEARCH_NAME);
        Map<String, Object> keyword = Map.of("type", "keyword");
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("chunk_id", keyword);
        properties.put("path", keyword);
        properties.put("project", keyword);
        properties.put("tags", keyword);
        properties.put(LexicalQueryPlan.CONTENT, text);
        properties.put(LexicalQueryPlan.BREADCRUMB, text);
        properties.put(LexicalQueryPlan.HEADING, text);
        properties.put(LexicalQueryPlan.LINKS, text);
        properties.put(LexicalQueryPlan.SOURCE, Map.of("type", "text", "analyzer", "standard"));
        // kept in _source only: the chunk as the note store has it, read when that is down
        properties.put(STORED, Map.of("type", "object", "enabled", false));
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("number_of_shards", options.shards());
        settings.put("number_of_replicas", options.replicas());
        settings.put("analysis", VaultTextAnalyzer.openSearchAnalysis());
        return Map.of("settings", settings, "mappings", Map.of("properties", properties));
    }

    /** Deletes the index if it exists (tests and full rebuilds). */
    public void dropIndex() {
        String index = options.indexName();
        call("drop index", () -> {
            if (client.indices().exists(e -> e.index(index)).value()) {
                client.indices().delete(d -> d.index(index));
            }
            return null;
        });
    }

    // the client, not camel-opensearch's Bulk operation: same 500-chunk bulk (with wait_for then), 2 x 15 alternating
    // rounds, p50 1,848 / 2,506 ms here against 2,695 / 2,660 ms there, and it would open a second connection pool
    // (2026-12-05)
    @Override
    public void upsert(List<Chunk> chunks) {
        for (int from = 0; from < chunks.size(); from += BULK_BATCH) {
            List<Chunk> batch = chunks.subList(from, Math.min(chunks.size(), from + BULK_BATCH));
            BulkRequest.Builder bulk = new BulkRequest.Builder().index(options.indexName()).refresh(options.refresh());
            for (Chunk chunk : batch) {
                Map<String, Object> doc = document(chunk);
                bulk.operations(op -> op.index(i -> i.id(chunk.id()).document(doc)));
            }
            BulkResponse response = call("bulk upsert of " + batch.size() + " chunks", () -> client.bulk(bulk.build()));
            if (response.errors()) {
                List<String> failures = response.items().stream()
                        .filter(item -> item.error() != null)
                        .map(OpenSearchLexicalIndex::describe)
                        .limit(3)
                        .toList();
                throw new OpenSearchIndexException("OpenSearch index '" + options.indexName()
                        + "' rejected chunks: " + String.join("; ", failures));
            }
        }
    }

    @Override
    public void deleteByPaths(Collection<String> paths) {
        if (paths.isEmpty()) {
            return;
        }
        call("delete chunks of " + paths.size() + " notes", () -> client.deleteByQuery(d -> d
                .index(options.indexName())
                .query(pathFilter(List.copyOf(paths)))
                // no wait_for here: _delete_by_query refreshes or not
                .refresh(options.refresh() == Refresh.False ? Refresh.False : Refresh.True)));
    }

    /*
     * The client call, not camel-opensearch's Search operation (issue 32 item 3): the same request through the
     * component on the same RestClient was slower in every run (CamelSearchBench, 5,000 chunks, alternating per
     * query, p50 57.3 vs 69.7 ms and mean 61.5 vs 72.3 ms; docs/operations.md), it answers the hits only (no took,
     * which the benchmarks print beside the step), and its async producer adds an exchange and a thread hand-off.
     */
    @Override
    public List<Hit> search(String query, SearchScope scope, int k) {
        long[] took = {-1}; // none sent yet
        List<Hit> hits = search(query, scope, k, took);
        if (took[0] >= 0) {
            engineTime.record(took[0], TimeUnit.MILLISECONDS);
        }
        return hits;
    }

    private List<Hit> search(String query, SearchScope scope, int k, long[] took) {
        if (query == null || query.isBlank() || k <= 0 || (scope.paths() != null && scope.paths().isEmpty())) {
            return List.of();
        }
        LexicalQueryPlan plan = LexicalQueryPlan.of(query);
        if (plan.isEmpty()) {
            return List.of();
        }
        SearchScope asked = scope;
        List<Hit> exact = null;
        Set<String> typos = Set.of();
        if (typoTolerant && !plan.typoCandidates().isEmpty()) {
            // the exact search names each typo candidate's clauses: a candidate a hit matched is held in scope
            List<String> candidates = List.copyOf(plan.typoCandidates());
            SearchResponse<Void> answer = call("search", () -> client.search(
                    s -> searchBody(s, plan, Set.of(), scope, k, candidates), Void.class));
            took[0] = Math.max(0, took[0]) + answer.took();
            Set<String> unseen = new LinkedHashSet<>(candidates);
            for (var hit : answer.hits().hits()) {
                hit.matchedQueries().forEach(name -> unseen.remove(candidates.get(heldCandidate(name))));
            }
            typos = unseen.isEmpty() ? Set.of() : unheld(List.copyOf(unseen), scope, took);
            if (typos.isEmpty()) {
                exact = hits(answer.hits().hits());
            }
        }
        Set<String> fuzzy = typos;
        for (int round = 0; ; round++) {
            SearchScope filter = asked;
            List<Hit> found = exact;
            if (round > 0 || exact == null) {
                SearchResponse<Void> response = call("search", () -> client.search(
                        s -> searchBody(s, plan, fuzzy, filter, k), Void.class));
                took[0] = Math.max(0, took[0]) + response.took();
                found = hits(response.hits().hits());
            }
            List<Hit> hits = new ArrayList<>(found.size());
            Set<String> unknown = new LinkedHashSet<>();
            for (Hit hit : found) {
                // under a project filter, a chunk of a note the scope does not know (newer than the link graph) is
                // dropped, and the search repeated without that note
                if (scope.containsChunk(hit.chunkId())) {
                    hits.add(hit);
                } else {
                    unknown.add(SearchScope.pathOfChunk(hit.chunkId()));
                }
            }
            if (unknown.isEmpty() || round + 1 >= MAX_UNKNOWN_ROUNDS) {
                return hits;
            }
            SearchScope.ProjectFilter f = asked.byProject();
            Set<String> excluded = new LinkedHashSet<>(f.excluded());
            excluded.addAll(unknown);
            asked = new SearchScope(scope.paths(), scope.tags(),
                    new SearchScope.ProjectFilter(f.project(), excluded, f.extra()));
        }
    }

    private static List<Hit> hits(List<org.opensearch.client.opensearch.core.search.Hit<Void>> found) {
        List<Hit> out = new ArrayList<>(found.size());
        for (var hit : found) {
            out.add(new Hit(hit.id(), hit.score() == null ? 0.0 : hit.score()));
        }
        return out;
    }

    /**
     * Matches a chunk whose text fields (those analysed alike, {@link LexicalQueryPlan#TEXT_FIELDS}) hold the term:
     * counted among the chunks in scope, as the Lucene index asks whether a term is "held" (no typo clause), since
     * a word only notes the caller may not read hold must not switch typo tolerance off (docs/security.md, ranking
     * and notes the caller may not read).
     */
    private static Query inTextField(String term) {
        return Query.of(q -> q.bool(any -> {
            LexicalQueryPlan.TEXT_FIELDS.forEach(field -> any.should(termQuery(field, term)));
            return any.minimumShouldMatch("1");
        }));
    }

    private static Query termQuery(String field, String term) {
        return Query.of(q -> q.term(t -> t.field(field).value(FieldValue.of(term))));
    }

    /** The search: {@link #query} under the scope's filters, the top k by score, then chunk id. */
    private SearchRequest.Builder searchBody(SearchRequest.Builder s, LexicalQueryPlan plan, Set<String> fuzzy,
                                             SearchScope scope, int k) {
        return searchBody(s, plan, fuzzy, scope, k, List.of());
    }

    /**
     * As above, with the text-field clauses of the terms {@code named} carrying a name ({@link #heldName}), so each
     * hit says which of them it holds. The score leads the sort, so it comes back without {@code track_scores}
     * (which made OpenSearch collect every match twice: took 4.0 -> 2.4 ms at 100,000 chunks with the names, 2026-12-05).
     */
    private SearchRequest.Builder searchBody(SearchRequest.Builder s, LexicalQueryPlan plan, Set<String> fuzzy,
                                             SearchScope scope, int k, List<String> named) {
        return s.index(options.indexName()).query(q -> q.bool(b -> query(b, plan, fuzzy, scope, named, fieldTieBreaker))).size(k)
                .sort(BY_SCORE_THEN_ID).source(src -> src.fetch(false)).trackTotalHits(NO_TOTAL);
    }

    /**
     * The typo candidates none of the exact search's hits held: those no chunk in scope holds ({@link #inTextField},
     * counted by a {@code filters} aggregation over the scope without its tags, since "held" ignores them as in the
     * Lucene index). A candidate held in scope but by no top hit (a rare case: a held term lifts its holders) costs
     * this one count; a typo is held by none.
     */
    private Set<String> unheld(List<String> unseen, SearchScope scope, long[] took) {
        List<Query> held = unseen.stream().map(OpenSearchLexicalIndex::inTextField).toList();
        SearchScope untagged = new SearchScope(scope.paths(), List.of(), scope.byProject());
        SearchResponse<Void> answer = call("count held terms", () -> client.search(s -> s.index(options.indexName())
                .query(q -> q.bool(b -> {
                    scopeFilter(b, untagged);
                    return b;
                })).size(0).trackTotalHits(NO_TOTAL)
                .aggregations(HELD, a -> a.filters(f -> f.filters(b -> b.array(held)))), Void.class));
        took[0] += answer.took();
        List<FiltersBucket> counts = answer.aggregations().get(HELD).filters().buckets().array();
        Set<String> typos = new LinkedHashSet<>();
        for (int i = 0; i < unseen.size(); i++) {
            if (counts.get(i).docCount() == 0) {
                typos.add(unseen.get(i));
            }
        }
        return typos;
    }

    /** The name of candidate {@code index}'s clause on {@code field}: names must be unique within a request. */
    private static String heldName(int index, String field) {
        return HELD + "." + index + "." + field;
    }

    /** The candidate index a {@link #heldName} names. */
    private static int heldCandidate(String name) {
        int from = HELD.length() + 1;
        return Integer.parseInt(name.substring(from, name.indexOf('.', from)));
    }

    /**
     * Refreshes the index: the writes so far become searchable now rather than at the node's next periodic refresh.
     * Called at an ingest run's start and end, outside any bulk load of it: so an index at {@code refresh_interval:
     * -1} was left so by a bulk load that died (this hub's or another process's), and first gets its interval back
     * ({@link #restoreRefreshInterval}), so that a later run that fails before its end still becomes searchable on
     * the node's own schedule.
     */
    @Override
    public void makeSearchable() {
        if (DISABLED.equals(refreshInterval())) {
            restoreRefreshInterval();
        }
        call("refresh", () -> client.indices().refresh(r -> r.index(options.indexName())));
    }

    /**
     * Turns the periodic refresh off ({@code refresh_interval: -1}) for the load, remembering the interval the index
     * had (none when it was not set, or -1 itself: that is what a bulk load that died left behind).
     */
    @Override
    public void beginBulkLoad() {
        String before = refreshInterval();
        if (!bulkLoading) {
            intervalBeforeBulk = DISABLED.equals(before) ? null : before;
        }
        bulkLoading = true;
        putRefreshInterval(DISABLED);
    }

    /**
     * Restores the refresh interval ({@link #restoreRefreshInterval}), then merges the index into one segment: a bulk
     * load leaves about ten, and each is searched on its own. At 100,000 chunks OpenSearch's took went from 6 to 4 ms
     * p50 and 16 clients from 118 to 147 queries/s (2026-12-05, docs/operations.md); the merge took 1.8 s. Later
     * small writes add segments the node merges as usual.
     */
    @Override
    public void endBulkLoad() {
        restoreRefreshInterval();
        call("force-merge", () -> client.indices().forcemerge(f -> f.index(options.indexName()).maxNumSegments(1L)));
        // searches read the merged segment from the next refresh; an idle shard would wait for a search to ask
        call("refresh", () -> client.indices().refresh(r -> r.index(options.indexName())));
    }

    /**
     * Sets the refresh interval back to the one {@link #beginBulkLoad} found in this process, or else removes the
     * setting (the node's default, 1 s, with idle shards skipping refreshes until searched): a -1 found without a
     * bulk load of this process was left by one that died, and the interval before it is not known.
     */
    private void restoreRefreshInterval() {
        putRefreshInterval(bulkLoading ? intervalBeforeBulk : null);
        bulkLoading = false;
        intervalBeforeBulk = null;
    }

    /** The index's own {@code refresh_interval} setting, null when it has none (the node's default applies). */
    public String refreshInterval() {
        return call("read refresh interval", () -> {
            String body = send(Requests.builder().method("GET")
                    .endpoint("/" + options.indexName() + "/_settings/index.refresh_interval").build());
            var interval = JSON.readTree(body).path(options.indexName()).path("settings").path("index")
                    .path("refresh_interval");
            return interval.isTextual() ? interval.asText() : null;
        });
    }

    /** Sets the index's {@code refresh_interval}; null removes the setting. */
    private void putRefreshInterval(String interval) {
        Map<String, Object> setting = new LinkedHashMap<>();
        setting.put("refresh_interval", interval);
        call("set refresh interval " + interval, () -> send(Requests.builder().method("PUT")
                .endpoint("/" + options.indexName() + "/_settings")
                .json(JSON.writeValueAsString(Map.of("index", setting))).build()));
    }

    /** Sends a request the typed client has no call for; the body of a 2xx answer, else an IOException. */
    private String send(Request request) throws IOException {
        try (Response response = client.generic().execute(request)) {
            String body = response.getBody().map(Body::bodyAsString).orElse("");
            if (response.getStatus() / 100 != 2) {
                throw new IOException("status " + response.getStatus() + ": " + body);
            }
            return body;
        }
    }

    @Override
    public long count() {
        return call("count", () -> client.count(c -> c.index(options.indexName())).count());
    }

    @Override
    public String name() {
        return "opensearch";
    }

    /**
     * The {@link LexicalQueryPlan} as OpenSearch clauses: the exact dis-max (×3) and, for the {@code fuzzy} terms
     * (those no text field holds), the fuzzy dis-max, as the Lucene index builds them; then the scope and tags.
     */
    static BoolQuery.Builder query(BoolQuery.Builder bool, LexicalQueryPlan plan, Set<String> fuzzy,
                                   SearchScope scope) {
        return query(bool, plan, fuzzy, scope, List.of(), 0);
    }

    /**
     * As above, naming the text-field term clauses of the {@code named} terms ({@link #heldName}), the exact
     * dis-max's other fields adding {@code fieldTieBreaker} times their scores.
     */
    private static BoolQuery.Builder query(BoolQuery.Builder bool, LexicalQueryPlan plan, Set<String> fuzzy,
                                           SearchScope scope, List<String> named, float fieldTieBreaker) {
        List<Query> exact = new ArrayList<>();
        List<Query> typo = new ArrayList<>();
        for (LexicalQueryPlan.FieldTerms field : plan.fields()) {
            String name = field.field().name();
            float boost = field.field().boost();
            boolean text = LexicalQueryPlan.TEXT_FIELDS.contains(name);
            exact.add(Query.of(q -> q.bool(b -> {
                field.terms().forEach(t -> {
                    int index = text ? named.indexOf(t) : -1;
                    b.should(index < 0 ? termQuery(name, t) : Query.of(x -> x.term(m -> m.field(name)
                            .value(FieldValue.of(t)).queryName(heldName(index, name)))));
                });
                return b.boost(boost);
            })));
            List<String> fuzzed = field.typoCandidates().stream().filter(fuzzy::contains).toList();
            if (!fuzzed.isEmpty()) {
                typo.add(Query.of(q -> q.bool(b -> {
                    fuzzed.forEach(t -> b.should(s -> s.fuzzy(z -> z.field(name).value(FieldValue.of(t))
                            .fuzziness(Integer.toString(LexicalQueryPlan.maxEdits(t))).prefixLength(0)
                            .maxExpansions(QueryTokens.FUZZY_EXPANSIONS).transpositions(true))));
                    return b.boost(boost);
                })));
            }
        }
        bool.should(s -> s.disMax(d -> d.queries(exact).tieBreaker(fieldTieBreaker)
                .boost(LexicalQueryPlan.EXACT_BOOST)));
        if (!typo.isEmpty()) {
            bool.should(s -> s.disMax(d -> d.queries(typo).tieBreaker(0f)));
        }
        bool.minimumShouldMatch("1");
        scopeFilter(bool, scope);
        for (String tag : scope.tags()) {
            bool.filter(f -> f.term(t -> t.field("tags").value(FieldValue.of(tag))));
        }
        return bool;
    }

    /** The scope's notes as a non-scoring filter: the project filter, or the paths. */
    private static void scopeFilter(BoolQuery.Builder bool, SearchScope scope) {
        if (scope.byProject() != null) {
            bool.filter(projectFilter(scope.byProject()));
        } else if (scope.paths() != null) {
            bool.filter(pathFilter(List.copyOf(scope.paths())));
        }
    }

    /** The project's chunks except the excluded notes, or the extra notes: a few terms instead of every path. */
    static Query projectFilter(SearchScope.ProjectFilter f) {
        Query project = Query.of(q -> q.bool(b -> {
            b.filter(p -> p.term(t -> t.field("project").value(FieldValue.of(f.project()))));
            if (!f.excluded().isEmpty()) {
                b.mustNot(pathFilter(List.copyOf(f.excluded())));
            }
            return b;
        }));
        return f.extra().isEmpty() ? project : Query.of(q -> q.bool(b -> b.should(project)
                .should(pathFilter(List.copyOf(f.extra()))).minimumShouldMatch("1")));
    }

    /** One {@code terms} query, or a disjunction of several when the scope exceeds the per-query term limit. */
    static Query pathFilter(List<String> paths) {
        List<Query> parts = new ArrayList<>();
        for (int from = 0; from < paths.size(); from += MAX_TERMS_COUNT) {
            List<FieldValue> values = paths.subList(from, Math.min(paths.size(), from + MAX_TERMS_COUNT)).stream()
                    .map(FieldValue::of).toList();
            parts.add(Query.of(q -> q.terms(t -> t.field("path").terms(v -> v.value(values)))));
        }
        return parts.size() == 1 ? parts.get(0)
                : Query.of(q -> q.bool(b -> b.should(parts).minimumShouldMatch("1")));
    }

    private static Map<String, Object> document(Chunk chunk) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("chunk_id", chunk.id());
        doc.put("path", chunk.path());
        doc.put("source", chunk.path());
        doc.put("project", chunk.project());
        doc.put("tags", chunk.tags() == null ? List.of() : chunk.tags());
        doc.put("heading", chunk.heading());
        doc.put("breadcrumb", chunk.breadcrumb() == null ? "" : chunk.breadcrumbText());
        LinkText text = LinkText.of(chunk.text());
        doc.put(LexicalQueryPlan.CONTENT, text.own());
        doc.put(LexicalQueryPlan.LINKS, text.references());
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("text", chunk.text());
        stored.put("ordinal", chunk.ordinal());
        stored.put("breadcrumb", chunk.breadcrumb() == null ? List.of() : chunk.breadcrumb());
        stored.put("tokens", chunk.tokens());
        if (chunk.metadata() != null) {
            stored.put("first_sentence", chunk.metadata().firstSentence());
            stored.put("key_terms", chunk.metadata().keyTerms());
            stored.put("category", chunk.metadata().category());
        }
        doc.put(STORED, stored);
        return doc;
    }

    /**
     * The chunks with these ids as indexed here (the same fields as the note store's rows), for answering while
     * the note store is down. Chunks indexed before these fields were stored come back without metadata.
     */
    @Override
    @SuppressWarnings("unchecked")
    public List<Chunk> chunks(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<FieldValue> values = ids.stream().distinct().map(FieldValue::of).toList();
        SearchResponse<Map> response = call("read " + values.size() + " chunks", () -> client.search(s -> s
                .index(options.indexName())
                .query(q -> q.terms(t -> t.field("chunk_id").terms(v -> v.value(values))))
                .size(values.size()), Map.class));
        List<Chunk> out = new ArrayList<>();
        for (var hit : response.hits().hits()) {
            if (hit.source() != null) {
                out.add(chunk((Map<String, Object>) hit.source()));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static Chunk chunk(Map<String, Object> doc) {
        Map<String, Object> stored = doc.get(STORED) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        String id = (String) doc.get("chunk_id");
        String heading = (String) doc.get("heading");
        // the text as written; an index written before it was stored holds it in content
        String text = stored.get("text") instanceof String t ? t : (String) doc.get("content");
        List<String> breadcrumb = stored.get("breadcrumb") instanceof List<?> b ? (List<String>) b
                : List.of(((String) doc.getOrDefault("breadcrumb", "")).split(" > ", -1));
        int ordinal = stored.get("ordinal") instanceof Number n ? n.intValue()
                : Integer.parseInt(id.substring(id.lastIndexOf('#') + 1));
        int tokens = stored.get("tokens") instanceof Number n ? n.intValue() : 0;
        ChunkMetadata metadata = new ChunkMetadata(heading, (String) stored.get("first_sentence"),
                stored.get("key_terms") instanceof List<?> k ? (List<String>) k : List.of(),
                (String) stored.get("category"));
        List<String> tags = doc.get("tags") instanceof List<?> t ? (List<String>) t : List.of();
        return new Chunk(id, (String) doc.get("path"), (String) doc.get("project"), ordinal, heading, breadcrumb,
                text, tokens, metadata, tags);
    }

    private static String describe(BulkResponseItem item) {
        return item.id() + ": " + item.error().type() + " " + item.error().reason();
    }

    private interface Call<T> {
        T run() throws IOException;
    }

    private <T> T call(String operation, Call<T> call) {
        try {
            return call.run();
        } catch (OpenSearchException e) {
            throw new OpenSearchIndexException("OpenSearch " + operation + " on index '" + options.indexName()
                    + "' failed: " + e.status() + " " + e.error().type() + ": " + e.error().reason(), e);
        } catch (IOException | RuntimeException e) {
            throw new OpenSearchIndexException("OpenSearch " + operation + " on index '" + options.indexName()
                    + "' failed: " + e, e);
        }
    }
}
