package io.poimen.memory.index.opensearch;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.QueryTokens;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.query_dsl.BoolQuery;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.BulkRequest;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;

/**
 * BM25 lexical index of chunks in one OpenSearch index (default {@value #DEFAULT_INDEX}).
 *
 * <p>Query: {@code bool.should} of two {@code multi_match} clauses over {@code content^2, breadcrumb, source,
 * heading}: an exact one (boost {@value #EXACT_BOOST}) and one with {@code fuzziness: AUTO:5,8} (boost 1), so an exact
 * term outranks its typo neighbours while a typo still finds the chunk. Scope and tags are non-scoring
 * {@code filter}s: {@code terms} on the {@code path} keyword (split into several {@code terms} queries beyond
 * OpenSearch's 65,536-term limit) and
 * one {@code term} per required tag. Query size is capped as described in {@link QueryTokens}. Every client failure surfaces as {@link OpenSearchIndexException}.
 */
public class OpenSearchLexicalIndex implements LexicalIndex {
    public static final String DEFAULT_INDEX = "vault-chunks";
    static final float EXACT_BOOST = 3f;
    /** No edits below 5 characters, 1 edit for 5–7, 2 from 8: the same rule as the Lucene index. */
    static final String FUZZINESS = "AUTO:5,8";
    private static final int BULK_BATCH = 500;
    /** Searches of a project filter repeated for chunks of notes newer than the scope (see {@link #search}). */
    private static final int MAX_UNKNOWN_ROUNDS = 3;
    /** OpenSearch's default {@code index.max_terms_count}: the most values one {@code terms} query may carry. */
    static final int MAX_TERMS_COUNT = 65_536;
    private static final String STORED = "stored";
    private static final List<String> FIELDS = List.of("content^2", "breadcrumb", "source", "heading");

    /**
     * Index settings.
     *
     * @param indexName index to use, lower case
     * @param shards    primary shards when the index is created
     * @param replicas  replicas when the index is created
     * @param refresh   refresh policy of upserts ({@link Refresh#WaitFor} in tests, {@link Refresh#False} in
     *                  production where the 1 s refresh interval is enough)
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

    public OpenSearchLexicalIndex(OpenSearchClient client) {
        this(client, Options.defaults());
    }

    public OpenSearchLexicalIndex(OpenSearchClient client, String indexName) {
        this(client, Options.defaults().withIndexName(indexName));
    }

    public OpenSearchLexicalIndex(OpenSearchClient client, Options options) {
        this.client = Objects.requireNonNull(client, "client");
        this.options = Objects.requireNonNull(options, "options");
    }

    public String indexName() {
        return options.indexName();
    }

    /** Creates the index with the chunk mapping unless it exists. Returns true when it was created. */
    public boolean ensureIndex() {
        String index = options.indexName();
        return call("create index", () -> {
            if (client.indices().exists(e -> e.index(index)).value()) {
                return false;
            }
            try {
                client.indices().create(c -> c.index(index)
                        .settings(s -> s.numberOfShards(options.shards()).numberOfReplicas(options.replicas()))
                        .mappings(m -> m
                                .properties("chunk_id", p -> p.keyword(k -> k))
                                .properties("path", p -> p.keyword(k -> k))
                                .properties("project", p -> p.keyword(k -> k))
                                .properties("tags", p -> p.keyword(k -> k))
                                .properties("content", p -> p.text(t -> t.analyzer("english")))
                                .properties("breadcrumb", p -> p.text(t -> t.analyzer("english")))
                                .properties("heading", p -> p.text(t -> t.analyzer("english")))
                                .properties("source", p -> p.text(t -> t.analyzer("standard")))
                                // kept in _source only: the chunk as the note store has it, read when that is down
                                .properties(STORED, p -> p.object(o -> o.enabled(false)))));
                return true;
            } catch (OpenSearchException e) {
                if ("resource_already_exists_exception".equals(e.error().type())) {
                    return false; // created concurrently by another instance
                }
                throw e;
            }
        });
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
                .refresh(Refresh.True)));
    }

    @Override
    public List<Hit> search(String query, SearchScope scope, int k) {
        if (query == null || query.isBlank() || k <= 0 || (scope.paths() != null && scope.paths().isEmpty())) {
            return List.of();
        }
        SearchScope asked = scope;
        for (int round = 0; ; round++) {
            SearchScope filter = asked;
            Query q = Query.of(b -> b.bool(bool -> buildQuery(bool, query, filter)));
            SearchResponse<Void> response = call("search", () -> client.search(s -> s.index(options.indexName())
                    .query(q).size(k).source(src -> src.fetch(false)), Void.class));
            List<Hit> hits = new ArrayList<>(response.hits().hits().size());
            Set<String> unknown = new LinkedHashSet<>();
            for (var hit : response.hits().hits()) {
                // under a project filter, a chunk of a note the scope does not know (newer than the link graph) is
                // dropped, and the search repeated without that note
                if (scope.containsChunk(hit.id())) {
                    hits.add(new Hit(hit.id(), hit.score() == null ? 0.0 : hit.score()));
                } else {
                    unknown.add(SearchScope.pathOfChunk(hit.id()));
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

    @Override
    public long count() {
        return call("count", () -> client.count(c -> c.index(options.indexName())).count());
    }

    @Override
    public String name() {
        return "opensearch";
    }

    private static BoolQuery.Builder buildQuery(BoolQuery.Builder bool, String query, SearchScope scope) {
        String exact = QueryTokens.first(query, QueryTokens.MAX_TERMS);
        String fuzzy = QueryTokens.first(query, QueryTokens.MAX_FUZZY_TERMS);
        bool.should(s -> s.multiMatch(m -> m.query(exact).fields(FIELDS).boost(EXACT_BOOST)));
        bool.should(s -> s.multiMatch(m -> m.query(fuzzy).fields(FIELDS).fuzziness(FUZZINESS)
                .maxExpansions(QueryTokens.FUZZY_EXPANSIONS)));
        bool.minimumShouldMatch("1");
        if (scope.byProject() != null) {
            bool.filter(projectFilter(scope.byProject()));
        } else if (scope.paths() != null) {
            bool.filter(pathFilter(List.copyOf(scope.paths())));
        }
        for (String tag : scope.tags()) {
            bool.filter(f -> f.term(t -> t.field("tags").value(FieldValue.of(tag))));
        }
        return bool;
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
        doc.put("content", chunk.text());
        Map<String, Object> stored = new LinkedHashMap<>();
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
        String text = (String) doc.get("content");
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
