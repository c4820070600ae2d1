package io.poimen.memory;

import static io.poimen.memory.index.lucene.LexicalIndexContract.SPLIT_QUERY;
import static io.poimen.memory.index.lucene.LexicalIndexContract.SPLIT_WORDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.LuceneLexicalIndex;
import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import io.poimen.memory.testsupport.TestOpenSearch;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opensearch.client.RestClient;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code poimen.lexical.field-tie-breaker} reaches the BM25 index the hub builds, on either store: the indexes
 * {@link StoreConfig} makes from bound properties rank the chunk whose query words are split between its heading
 * and its text first with the setting and second without it (the behaviour itself:
 * {@link io.poimen.memory.index.lucene.LexicalIndexContract}).
 */
class LexicalSettingsWiringTest {
    private static final List<String> GATHERED = List.of("ops/etcd.md#0", "ops/disks.md#0");
    private static final List<String> BEST_FIELD = List.of("ops/disks.md#0", "ops/etcd.md#0");

    @TempDir
    Path dir;

    private static PoimenProperties bind(Map<String, String> settings, String tieBreaker) {
        Map<String, String> all = new HashMap<>(settings);
        if (tieBreaker != null) {
            all.put("poimen.lexical.field-tie-breaker", tieBreaker);
        }
        return new Binder(new MapConfigurationPropertySource(all)).bindOrCreate("poimen", PoimenProperties.class);
    }

    private static List<String> ranked(LexicalIndex index) {
        index.upsert(SPLIT_WORDS);
        index.makeSearchable();
        return index.search(SPLIT_QUERY, SearchScope.all(), 2).stream().map(Hit::chunkId).toList();
    }

    @Test
    void theEmbeddedIndexJoinsItsFieldsWithTheSetting() {
        try (LuceneLexicalIndex set = new StoreConfig().luceneLexicalIndex(
                     bind(Map.of("poimen.data.dir", dir.resolve("set").toString()), "0.5"));
             LuceneLexicalIndex unset = new StoreConfig().luceneLexicalIndex(
                     bind(Map.of("poimen.data.dir", dir.resolve("unset").toString()), null))) {
            assertThat(ranked(set)).isEqualTo(GATHERED);
            assertThat(ranked(unset)).isEqualTo(BEST_FIELD);
        }
    }

    @Test
    void theOpenSearchIndexJoinsItsFieldsWithTheSetting() throws Exception {
        assertThat(rankedOnOpenSearch("wiring-tie-set", "0.5")).isEqualTo(GATHERED);
        assertThat(rankedOnOpenSearch("wiring-tie-unset", null)).isEqualTo(BEST_FIELD);
    }

    private static List<String> rankedOnOpenSearch(String indexName, String tieBreaker) throws Exception {
        PoimenProperties props = bind(Map.of("poimen.opensearch.url", TestOpenSearch.url(),
                "poimen.opensearch.index", indexName), tieBreaker);
        StoreConfig config = new StoreConfig();
        try (RestClient rest = config.openSearchRestClient(props)) {
            OpenSearchLexicalIndex index = config.openSearchLexicalIndex(rest, props, new SimpleMeterRegistry());
            try {
                return ranked(index);
            } finally {
                index.dropIndex();
            }
        }
    }
}
