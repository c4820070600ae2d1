package io.poimen.memory.index.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.LexicalIndexContract;
import io.poimen.memory.testsupport.TestOpenSearch;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch._types.Refresh;

/** The test node itself: it answers, and a stop makes the index fail cleanly until a restart brings the data back. */
class TestOpenSearchTest {

    @Test
    void stopMakesCallsFailAndRestartBringsTheDataBack() throws Exception {
        assertThat(TestOpenSearch.client().info().clusterName()).isEqualTo("poimen-test");
        assertThat(TestOpenSearch.url()).startsWith("http://127.0.0.1:");
        System.out.println("OpenSearch test node start: " + TestOpenSearch.lastStartMillis() + " ms");
        OpenSearchLexicalIndex index = new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName("restart-check").withRefresh(Refresh.WaitFor));
        index.ensureIndex();
        index.upsert(List.of(LexicalIndexContract.chunk("notes/a.md", 0, "A", List.of("A"), "durable words",
                List.of())));
        try {
            TestOpenSearch.stop();

            assertThatThrownBy(() -> index.search("durable", SearchScope.all(), 5))
                    .isInstanceOf(OpenSearchIndexException.class)
                    .hasMessageContaining("search on index 'restart-check' failed");
        } finally {
            TestOpenSearch.restart();
        }
        System.out.println("OpenSearch test node restart: " + TestOpenSearch.lastStartMillis() + " ms");

        assertThat(index.search("durable", SearchScope.all(), 5)).extracting(Hit::chunkId)
                .containsExactly("notes/a.md#0");
        index.dropIndex();
    }
}
