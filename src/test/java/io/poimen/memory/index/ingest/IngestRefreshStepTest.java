package io.poimen.memory.index.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import io.poimen.memory.testsupport.TestOpenSearch;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The ingest run's refresh step ({@link IngestPipeline#makeSearchable}) on a real OpenSearch node: a refresh that
 * fails loses nothing that was written, so the run goes on to its report.
 */
class IngestRefreshStepTest {

    @Test
    void aRefreshThatFailsIsLoggedAndTheRunGoesOn() {
        // an index the node does not have: the refresh is answered 404
        OpenSearchLexicalIndex lexical = new OpenSearchLexicalIndex(TestOpenSearch.client(),
                OpenSearchLexicalIndex.Options.defaults().withIndexName("refresh-step-" + System.nanoTime()));
        IngestPipeline pipeline = new IngestPipeline(null, null, null, null, null, null, lexical, null, null, null);
        IngestRun run = new IngestRun(Path.of("."), List.of("a.md"), List.of("a.md"), List.of(), Set.of(), null);

        pipeline.makeSearchable(run);

        assertThat(run.stepNanos).containsKey("lexical-refresh");
    }
}
