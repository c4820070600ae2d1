package io.poimen.memory.index.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.index.lucene.LexicalIndexContract;
import io.poimen.memory.index.lucene.LuceneVectorIndex;
import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import io.poimen.memory.testsupport.TestOpenSearch;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch.generic.Requests;

/**
 * A bulk run (at least the threshold's notes changed) loads the OpenSearch index without periodic refreshes and ends
 * with its refresh interval back and the index merged into one segment; a smaller run leaves the segments its writes
 * made, and the next run's end repairs a bulk load that never ended. On a real OpenSearch node.
 */
class BulkReindexTest {
    private static final int THRESHOLD = 3;

    private OpenSearchLexicalIndex lexical;
    private LuceneVectorIndex vectors;
    private BulkReindex bulk;

    @BeforeEach
    void threeWritesThreeSegments() {
        lexical = new OpenSearchLexicalIndex(TestOpenSearch.client(), OpenSearchLexicalIndex.Options.defaults()
                .withIndexName("bulk-reindex-" + System.nanoTime()).withRefresh(Refresh.WaitFor));
        lexical.ensureIndex();
        vectors = new LuceneVectorIndex(new ByteBuffersDirectory(), 4);
        bulk = new BulkReindex(vectors, lexical, THRESHOLD);
        for (int i = 0; i < 3; i++) { // each write waits for a refresh: a segment each
            lexical.upsert(List.of(LexicalIndexContract.chunk("projects/p/n" + i + ".md", 0, "Note " + i,
                    List.of("Note " + i), "pods restart after the probe fails " + i, List.of())));
        }
    }

    @AfterEach
    void drop() throws Exception {
        lexical.dropIndex();
        vectors.close();
    }

    @Test
    void aBulkRunEndsWithTheLexicalIndexInOneSegment() throws Exception {
        assertThat(segments()).isGreaterThan(1);

        IngestRun run = run(THRESHOLD);
        bulk.end(run);

        assertThat(segments()).isEqualTo(1);
        assertThat(run.stepNanos).containsKey("lexical-merge");
        assertThat(lexical.count()).isEqualTo(3);
    }

    @Test
    void aRunBelowTheThresholdLeavesTheSegments() throws Exception {
        int before = segments();

        IngestRun run = run(THRESHOLD - 1);
        bulk.end(run);

        assertThat(segments()).isEqualTo(before).isGreaterThan(1);
        assertThat(run.stepNanos).doesNotContainKey("lexical-merge");
    }

    @Test
    void aMergeThatFailsLeavesTheRunAsItIs() {
        lexical.dropIndex(); // the node answers 404 to the merge

        IngestRun run = run(THRESHOLD);
        bulk.end(run);

        assertThat(run.stepNanos).containsKey("lexical-merge");
        lexical.ensureIndex(); // for drop()
    }

    @Test
    void aBulkRunLoadsWithoutPeriodicRefreshesAndEndsWithTheIntervalTheIndexHad() {
        TestOpenSearch.setRefreshInterval(lexical.indexName(), "30s");

        IngestRun run = run(THRESHOLD);
        bulk.begin(run);

        assertThat(lexical.refreshInterval()).isEqualTo("-1");

        bulk.end(run);

        assertThat(lexical.refreshInterval()).isEqualTo("30s");
    }

    @Test
    void anIndexWithoutAnIntervalOfItsOwnEndsABulkRunWithoutOne() {
        IngestRun run = run(THRESHOLD);
        bulk.begin(run);
        assertThat(lexical.refreshInterval()).isEqualTo("-1");

        bulk.end(run);

        assertThat(lexical.refreshInterval()).as("the node's default applies again").isNull();
    }

    @Test
    void aRunBelowTheThresholdKeepsThePeriodicRefresh() {
        IngestRun run = run(THRESHOLD - 1);
        bulk.begin(run);

        assertThat(lexical.refreshInterval()).isNull();
    }

    /** A bulk run of this hub that failed after its begin: the next run's end gives the index its interval back. */
    @Test
    void aBulkRunThatFailedIsRepairedByTheNextRunsEnd() {
        TestOpenSearch.setRefreshInterval(lexical.indexName(), "30s");
        bulk.begin(run(THRESHOLD)); // and no end

        IngestRun next = run(THRESHOLD - 1);
        bulk.begin(next);
        bulk.end(next);
        assertThat(lexical.refreshInterval()).as("not a bulk run: its end does not merge").isEqualTo("-1");
        lexical.makeSearchable(); // the route's step after the run's last lexical write

        assertThat(lexical.refreshInterval()).isEqualTo("30s");
    }

    /**
     * A bulk load that died with its process (the interval before it went with that process): the next run's end
     * on another hub removes the -1, so the node's default refresh applies again.
     */
    @Test
    void aBulkLoadThatDiedWithItsProcessIsRepairedByTheNextRunsEnd() {
        OpenSearchLexicalIndex died = new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName(lexical.indexName()));
        new BulkReindex(vectors, died, THRESHOLD).begin(run(THRESHOLD));
        assertThat(lexical.refreshInterval()).isEqualTo("-1");

        IngestRun next = run(THRESHOLD - 1);
        bulk.begin(next);
        bulk.end(next);
        lexical.makeSearchable();

        assertThat(lexical.refreshInterval()).isNull();
    }

    private static IngestRun run(int changed) {
        List<String> paths = java.util.stream.IntStream.range(0, changed).mapToObj(i -> "projects/p/n" + i + ".md")
                .toList();
        return new IngestRun(Path.of("."), paths, paths, List.of(), Set.of(), null);
    }

    /** Segments the index's searches read ({@code _cat/segments} lists the searchable ones). */
    private int segments() throws Exception {
        var request = Requests.builder().method("GET")
                .endpoint("/_cat/segments/" + lexical.indexName() + "?format=json&h=segment,searchable").build();
        try (var response = TestOpenSearch.client().generic().execute(request)) {
            var rows = new ObjectMapper().readTree(response.getBody().orElseThrow().bodyAsString());
            int searchable = 0;
            for (var row : rows) {
                searchable += "true".equals(row.path("searchable").asText()) ? 1 : 0;
            }
            return searchable;
        }
    }
}
