package io.poimen.memory.index.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.apache.lucene.store.ByteBuffersDirectory;

class LuceneLexicalIndexTest extends LexicalIndexContract {

    @Override
    protected LexicalIndex newIndex() {
        return LuceneLexicalIndex.inMemory();
    }

    @Override
    protected LexicalIndex newIndexWithoutFuzzy() {
        return new LuceneLexicalIndex(new ByteBuffersDirectory(), false);
    }

    @Override
    protected LexicalIndex newIndexWithFieldTieBreaker(double tie) {
        return new LuceneLexicalIndex(new ByteBuffersDirectory(), true, tie);
    }

    @Override
    protected void dispose(LexicalIndex index) {
        ((LuceneLexicalIndex) index).close();
    }

    @Test
    void chunksSurviveCloseAndReopen(@TempDir Path dir) {
        try (LuceneLexicalIndex first = LuceneLexicalIndex.open(dir)) {
            first.upsert(List.of(chunk("notes/ssh.md", 0, "SSH", List.of("SSH"), "Forward the agent with ssh -A.",
                    List.of("ops"))));
        }
        try (LuceneLexicalIndex reopened = LuceneLexicalIndex.open(dir)) {
            assertThat(reopened.count()).isEqualTo(1);
            assertThat(reopened.search("agent", new SearchScope(null, List.of("ops")), 5))
                    .extracting(Hit::chunkId).containsExactly("notes/ssh.md#0");
        }
    }

    @Test
    void editsGrowWithTermLength() {
        assertThat(LexicalQueryPlan.maxEdits("pods")).isZero();
        assertThat(LexicalQueryPlan.maxEdits("crash")).isEqualTo(1);
        assertThat(LexicalQueryPlan.maxEdits("kubectl")).isEqualTo(1);
        assertThat(LexicalQueryPlan.maxEdits("crashloop")).isEqualTo(2);
    }

    @Test
    void aScopeOfEveryPathAnswersAsTheUnscopedSearchAndTheFloorAsksTheSameQuery() {
        try (LuceneLexicalIndex index = LuceneLexicalIndex.inMemory()) {
            index.upsert(List.of(chunk("a.md", 0, "Pods", List.of("Pods"), "A pod in CrashLoopBackOff restarts.", List.of()),
                    chunk("b.md", 0, "Operator", List.of("Operator"), "The operator restarts the pod.", List.of())));
            index.upsert(List.of(chunk("c.md", 0, "Nodes", List.of("Nodes"), "A node drains its pods.", List.of())));
            for (String q : List.of("pod restarts", "CrashLoopBackOf operator", "drains")) {
                List<Hit> unscoped = index.search(q, SearchScope.all(), 10);

                assertThat(unscoped).isNotEmpty();
                assertThat(index.search(q, SearchScope.of(java.util.Set.of("a.md", "b.md", "c.md")), 10))
                        .isEqualTo(unscoped);
                assertThat(index.plainSearch(q, 10)).isEqualTo(unscoped);
            }
            // a scope without c.md still filters it out
            assertThat(index.search("pods", SearchScope.of(java.util.Set.of("a.md", "b.md")), 10))
                    .extracting(Hit::chunkId).doesNotContain("c.md#0");
        }
    }

    @Test
    void hitsNameTheirChunksAcrossSegmentsUpdatesAndDeletes() {
        try (LuceneLexicalIndex index = LuceneLexicalIndex.inMemory()) {
            for (int i = 0; i < 5; i++) { // one commit, so one segment, each
                index.upsert(List.of(chunk("n" + i + ".md", 0, "N", List.of("N"), "shared word" + " w" + i, List.of())));
            }
            assertThat(index.search("shared", SearchScope.all(), 10)).extracting(Hit::chunkId)
                    .containsExactlyInAnyOrder("n0.md#0", "n1.md#0", "n2.md#0", "n3.md#0", "n4.md#0");
            index.deleteByPaths(List.of("n1.md"));
            index.upsert(List.of(chunk("n2.md", 0, "N", List.of("N"), "other text", List.of()),
                    chunk("m.md", 0, "N", List.of("N"), "shared again", List.of())));

            assertThat(index.search("shared", SearchScope.all(), 10)).extracting(Hit::chunkId)
                    .containsExactlyInAnyOrder("n0.md#0", "n3.md#0", "n4.md#0", "m.md#0");
            assertThat(index.search("w3", SearchScope.all(), 10)).extracting(Hit::chunkId).containsExactly("n3.md#0");
        }
    }
}
