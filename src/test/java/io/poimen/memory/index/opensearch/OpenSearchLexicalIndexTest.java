package io.poimen.memory.index.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.LexicalIndexContract;
import io.poimen.memory.index.lucene.LexicalQueryPlan;
import io.poimen.memory.vault.VaultTextAnalyzer;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch._types.Refresh;

/** The lexical contract against a real OpenSearch node, plus the OpenSearch-only parts (mapping, errors). */
class OpenSearchLexicalIndexTest extends LexicalIndexContract {
    private static final AtomicInteger INDEXES = new AtomicInteger();

    @Override
    protected LexicalIndex newIndex() {
        OpenSearchLexicalIndex created = create("contract-" + INDEXES.incrementAndGet());
        assertThat(created.ensureIndex()).isTrue();
        return created;
    }

    @Override
    protected LexicalIndex newIndexWithoutFuzzy() {
        OpenSearchLexicalIndex created = new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName("contract-" + INDEXES.incrementAndGet())
                        .withRefresh(Refresh.WaitFor), false);
        assertThat(created.ensureIndex()).isTrue();
        return created;
    }

    @Override
    protected LexicalIndex newIndexWithFieldTieBreaker(double tie) {
        OpenSearchLexicalIndex created = new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName("contract-" + INDEXES.incrementAndGet())
                        .withRefresh(Refresh.WaitFor), true, tie, new SimpleMeterRegistry());
        assertThat(created.ensureIndex()).isTrue();
        return created;
    }

    @Override
    protected void dispose(LexicalIndex index) {
        ((OpenSearchLexicalIndex) index).dropIndex();
    }

    private static OpenSearchLexicalIndex create(String name) {
        return new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName(name).withRefresh(Refresh.WaitFor));
    }

    @Test
    void ensureIndexCreatesTheMappingOnce() throws Exception {
        OpenSearchLexicalIndex os = (OpenSearchLexicalIndex) index;

        assertThat(os.ensureIndex()).isFalse();

        var mapping = TestOpenSearch.client().indices().getMapping(m -> m.index(os.indexName()))
                .result().get(os.indexName()).mappings().properties();
        assertThat(mapping.get("content").text().analyzer()).isEqualTo(VaultTextAnalyzer.OPENSEARCH_NAME);
        assertThat(mapping.get("breadcrumb").text().analyzer()).isEqualTo(VaultTextAnalyzer.OPENSEARCH_NAME);
        assertThat(mapping.get("heading").text().analyzer()).isEqualTo(VaultTextAnalyzer.OPENSEARCH_NAME);
        assertThat(mapping.get("source").text().analyzer()).isEqualTo("standard");
        assertThat(mapping.get("links").text().analyzer()).isEqualTo(VaultTextAnalyzer.OPENSEARCH_NAME);
        assertThat(mapping.get("path").isKeyword()).isTrue();
        assertThat(mapping.get("tags").isKeyword()).isTrue();
        assertThat(mapping.get("chunk_id").isKeyword()).isTrue();
        // read as plain JSON: the typed client has no cjk_bigram filter to read the analysis settings into
        var request = org.opensearch.client.opensearch.generic.Requests.builder().method("GET")
                .endpoint("/" + os.indexName() + "/_settings").build();
        try (var response = TestOpenSearch.client().generic().execute(request)) {
            var settings = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(response.getBody().orElseThrow().bodyAsString()).path(os.indexName())
                    .path("settings").path("index");
            assertThat(settings.path("number_of_shards").asText()).isEqualTo("1");
            assertThat(settings.path("number_of_replicas").asText()).isEqualTo("0");
            assertThat(settings.path("analysis").path("analyzer").path(VaultTextAnalyzer.OPENSEARCH_NAME)
                    .path("tokenizer").asText()).isEqualTo("standard");
        }
    }

    /**
     * The index analyses text as the hub does (the terms the query is built from, and the TF-IDF branch's): the
     * index's own analyzer through {@code _analyze}, against {@link VaultTextAnalyzer} and the path field's
     * standard analyzer, on English, Japanese, Chinese, Korean, Arabic, mixed and full-width text.
     */
    @Test
    void theIndexAnalysesTextAsTheHubDoes() throws Exception {
        OpenSearchLexicalIndex os = (OpenSearchLexicalIndex) index;
        List<String> texts = List.of(
                "The pod's containers keep crashing; read the previous logs (kubectl logs -p).",
                "京都は千年以上にわたって日本の都であり、多くの寺や神社が残っている。",
                "データベースのバックアップは毎晩取得する ﾃﾞｰﾀ ＰｏｓｔｇｒｅＳＱＬ １５",
                "每天晚上备份数据库，每月检查一次恢复流程。",
                "데이터베이스를 매일 밤 백업합니다.",
                "ما هي عاصمة المملكة العربية السعودية؟",
                "Kubernetes の Pods が再起動する v1.2.3 don't O'Neil's");
        for (String text : texts) {
            for (String field : List.of("content", "breadcrumb", "heading", "source")) {
                List<String> server = TestOpenSearch.client().indices()
                        .analyze(a -> a.index(os.indexName()).field(field).text(text)).tokens().stream()
                        .map(t -> t.token()).toList();

                assertThat(server).as(field + ": " + text).isEqualTo(analyze(field, text));
            }
        }
    }

    private static List<String> analyze(String field, String text) {
        return io.poimen.memory.vault.Terms.analyze(LexicalQueryPlan.analyzer(), field, text);
    }

    /**
     * As the hub writes (no write waits for a refresh) on an index that refreshes once an hour: a write and a
     * deletion show only once the run's {@link LexicalIndex#makeSearchable} step ran, and then at once.
     */
    @Test
    void writesThatDoNotWaitForARefreshShowAfterMakeSearchable() {
        OpenSearchLexicalIndex os = new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName("contract-" + INDEXES.incrementAndGet()));
        os.ensureIndex();
        TestOpenSearch.setRefreshInterval(os.indexName(), "1h");
        try {
            os.upsert(List.of(LexicalIndexContract.chunk("notes/helm.md", 0, "Helm", List.of("Helm"),
                    "Roll back the quokkaflux release.", List.of())));
            assertThat(os.search("quokkaflux", SearchScope.all(), 5)).as("not refreshed yet").isEmpty();

            os.makeSearchable();

            assertThat(os.search("quokkaflux", SearchScope.all(), 5)).singleElement()
                    .satisfies(h -> assertThat(h.chunkId()).isEqualTo("notes/helm.md#0"));
            assertThat(os.refreshInterval()).as("an interval set by the operator is kept").isEqualTo("1h");

            os.deleteByPath("notes/helm.md");
            assertThat(os.search("quokkaflux", SearchScope.all(), 5)).as("not refreshed yet").hasSize(1);

            os.makeSearchable();

            assertThat(os.search("quokkaflux", SearchScope.all(), 5)).isEmpty();
            assertThat(os.count()).isZero();
        } finally {
            os.dropIndex();
        }
    }

    @Test
    void chunksReadBackAsTheNoteStoreHoldsThem() {
        Chunk full = new Chunk("projects/k8s/pods.md#3", "projects/k8s/pods.md", "k8s", 3, "Logs > tail",
                List.of("Pods", "Debugging", "Logs > tail"), "Read `kubectl logs -p`, ünïcødé ✓.", 42,
                new ChunkMetadata("Logs > tail", "Read the logs.", List.of("kubectl", "logs"), ChunkMetadata.TOOL),
                List.of("k8s", "debug"));
        Chunk shared = new Chunk("shared/retry.md#0", "shared/retry.md", null, 0, "Retry", List.of("Retry"),
                "Back off exponentially, see [[backoff#Jitter|jitter]] and [[retry-budget]].", 5,
                new ChunkMetadata("Retry", null, List.of(), null), List.of());
        index.upsert(List.of(full, shared, chunk("other.md", 0, "Other", List.of("Other"), "other", List.of())));

        assertThat(index.chunks(List.of(full.id(), shared.id(), "missing.md#0")))
                .containsExactlyInAnyOrder(full, shared);
        assertThat(index.chunks(List.of())).isEmpty();
    }

    @Test
    void chunksIndexedWithoutStoredFieldsComeBackFromTheSearchedFields() throws Exception {
        OpenSearchLexicalIndex os = (OpenSearchLexicalIndex) index;
        TestOpenSearch.client().index(i -> i.index(os.indexName()).id("old/note.md#2").refresh(Refresh.True)
                .document(java.util.Map.of("chunk_id", "old/note.md#2", "path", "old/note.md", "heading", "Setup",
                        "breadcrumb", "Note > Setup", "content", "Install it.", "tags", List.of("x"))));

        assertThat(index.chunks(List.of("old/note.md#2"))).singleElement().satisfies(c -> {
            assertThat(c.ordinal()).isEqualTo(2);
            assertThat(c.breadcrumb()).containsExactly("Note", "Setup");
            assertThat(c.text()).isEqualTo("Install it.");
            assertThat(c.tags()).containsExactly("x");
            assertThat(c.metadata().keyTerms()).isEmpty();
        });
    }

    /**
     * Whether the query's terms are held is answered by the exact search itself: a query whose words are all in
     * the index is one search at the node (the index's own search statistics count its query phases), one with a
     * typo two (the exact one, then the one with the fuzzy clause).
     */
    @Test
    void aQueryWhoseTermsAreAllHeldIsOneSearchAtTheNode() throws Exception {
        OpenSearchLexicalIndex os = (OpenSearchLexicalIndex) index;
        index.upsert(List.of(chunk("a.md", 0, "A", List.of("A"), "Drain the glimmerbrook node first.", List.of()),
                chunk("b.md", 0, "B", List.of("B"), "The glimmerbrook runbook.", List.of("dev"))));
        SearchScope dev = new SearchScope(null, List.of("dev"));

        long before = queriesRun(os);
        assertThat(index.search("glimmerbrook runbook", dev, 10))
                .extracting(io.poimen.memory.index.Hit::chunkId).containsExactly("b.md#0");
        long held = queriesRun(os) - before;
        assertThat(index.search("glimmerbruuk runbook", dev, 10))
                .extracting(io.poimen.memory.index.Hit::chunkId).containsExactly("b.md#0");
        long typo = queriesRun(os) - before - held;

        assertThat(held).isEqualTo(1);
        assertThat(typo).isEqualTo(3); // the exact search, the count of the term no hit held, the fuzzy search
    }

    /** OpenSearch's took is recorded once per search, summed over its requests, in the registry given. */
    @Test
    void eachSearchRecordsTheEngineTimeOnceInTheRegistry() {
        var registry = new SimpleMeterRegistry();
        OpenSearchLexicalIndex os = new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName(((OpenSearchLexicalIndex) index).indexName()),
                true, registry);
        index.upsert(List.of(chunk("a.md", 0, "A", List.of("A"), "The glimmerbrook runbook.", List.of())));

        os.search("glimmerbrook runbook", SearchScope.all(), 10); // one request
        os.search("glimmerbruuk runbook", SearchScope.all(), 10); // three: exact search, count, fuzzy search
        os.search("   ", SearchScope.all(), 10); // none

        var timer = registry.get(OpenSearchLexicalIndex.ENGINE_TIME).tag("index", os.indexName()).timer();
        assertThat(timer).isSameAs(os.engineTime());
        assertThat(timer.count()).isEqualTo(2);
    }

    /** The query phases the index has run (one shard: one per search). */
    private static long queriesRun(OpenSearchLexicalIndex os) throws Exception {
        var request = org.opensearch.client.opensearch.generic.Requests.builder().method("GET")
                .endpoint("/" + os.indexName() + "/_stats/search").build();
        try (var response = TestOpenSearch.client().generic().execute(request)) {
            return new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(response.getBody().orElseThrow().bodyAsString())
                    .path("_all").path("primaries").path("search").path("query_total").asLong(-1);
        }
    }

    @Test
    void clientFailuresBecomeOpenSearchIndexExceptions() {
        OpenSearchLexicalIndex missing = create("never-created-" + INDEXES.incrementAndGet());

        assertThatThrownBy(() -> missing.search("kubectl", SearchScope.all(), 5))
                .isInstanceOf(OpenSearchIndexException.class)
                .hasMessageContaining("search on index 'never-created-")
                .hasMessageContaining("index_not_found_exception");
        assertThatThrownBy(missing::count).isInstanceOf(OpenSearchIndexException.class);
    }

    @Test
    void rejectsIndexNamesOpenSearchWouldRefuse() {
        assertThatThrownBy(() -> create("Vault-Chunks")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Vault-Chunks");
    }

    @Test
    void largeUpsertsAreSentInBatches() {
        var chunks = java.util.stream.IntStream.range(0, 1_203)
                .mapToObj(i -> chunk("bulk/n" + i + ".md", 0, "N", List.of("N"), "bulk item " + i, List.of()))
                .toList();

        index.upsert(chunks);

        assertThat(index.count()).isEqualTo(1_203);
    }

    @Test
    void scopesBeyondTheTermsLimitStillFilter() {
        index.upsert(List.of(chunk("in/scope.md", 0, "A", List.of("A"), "quorum loss recovery", List.of()),
                chunk("out/scope.md", 0, "B", List.of("B"), "quorum loss drill", List.of())));
        java.util.Set<String> scope = new java.util.HashSet<>();
        for (int i = 0; i < OpenSearchLexicalIndex.MAX_TERMS_COUNT + 10; i++) {
            scope.add("other/n" + i + ".md");
        }
        scope.add("in/scope.md");

        assertThat(index.search("quorum", SearchScope.of(scope), 10))
                .extracting(io.poimen.memory.index.Hit::chunkId).containsExactly("in/scope.md#0");
    }

    /**
     * A large project scope goes out as a project filter, not a {@code terms} query over every path: it finds what
     * the path list finds, and no chunk out of scope (a denied project note, an unreached shared note, another
     * project, a note stored after the link graph the scope came from).
     */
    @Test
    void aLargeProjectScopeFindsWhatThePathListFindsAndNothingOutOfScope() {
        int notes = SearchScope.PROJECT_FILTER_MIN_PATHS + 100;
        java.util.Set<String> own = new java.util.HashSet<>();
        List<Chunk> chunks = new java.util.ArrayList<>();
        for (int i = 0; i < notes; i++) {
            String path = "projects/big/n-" + i + ".md";
            own.add(path);
            chunks.add(LexicalIndexContract.chunk(path, 0, "Notes", List.of("Notes"),
                    i % 100 == 0 ? "rotation quorum" : "rotation", List.of()));
        }
        List<String> outOfScope = List.of("projects/big/n-7.md", "projects/big/unknown.md", "shared/unreached.md",
                "projects/other/o.md");
        for (String path : outOfScope) {
            chunks.add(LexicalIndexContract.chunk(path, 0, "Notes", List.of("Notes"),
                    "quorum quorum quorum rotation", List.of()));
        }
        chunks.add(LexicalIndexContract.chunk("shared/reached.md", 0, "Notes", List.of("Notes"), "quorum",
                List.of()));
        index.upsert(chunks);
        java.util.Set<String> paths = new java.util.HashSet<>(own);
        paths.remove("projects/big/n-7.md");
        paths.add("shared/reached.md");

        SearchScope byProject = SearchScope.ofProject("big", paths, own, List.of());
        assertThat(byProject.byProject()).isNotNull();

        List<String> found = index.search("quorum", byProject, 100).stream()
                .map(io.poimen.memory.index.Hit::chunkId).toList();
        assertThat(found).hasSize(notes / 100 + 1).contains("shared/reached.md#0")
                .noneMatch(id -> outOfScope.stream().anyMatch(id::startsWith));
        assertThat(new java.util.HashSet<>(found)).isEqualTo(new java.util.HashSet<>(
                index.search("quorum", SearchScope.of(paths), 100).stream()
                        .map(io.poimen.memory.index.Hit::chunkId).toList()));
        assertThat(index.search("rotation", byProject, 50)).hasSize(50)
                .allMatch(h -> paths.contains(h.chunkId().substring(0, h.chunkId().lastIndexOf('#'))));
    }
}
