package io.poimen.memory.index.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneLexicalIndexTest extends LexicalIndexContract {

    @Override
    protected LexicalIndex newIndex() {
        return LuceneLexicalIndex.inMemory();
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
        assertThat(LuceneLexicalIndex.maxEdits("pods")).isZero();
        assertThat(LuceneLexicalIndex.maxEdits("crash")).isEqualTo(1);
        assertThat(LuceneLexicalIndex.maxEdits("kubectl")).isEqualTo(1);
        assertThat(LuceneLexicalIndex.maxEdits("crashloop")).isEqualTo(2);
    }

    @Test
    void onlyATermTheIndexDoesNotHoldIsFuzzed() {
        try (LuceneLexicalIndex index = LuceneLexicalIndex.inMemory()) {
            index.upsert(List.of(chunk("a.md", 0, "Pods", List.of("Pods"), "A pod in CrashLoopBackOff restarts.", List.of()),
                    chunk("b.md", 0, "Operator", List.of("Operator"), "The operator reports CrashLoopBackOn.", List.of())));
            // held as written: exact matches only, the neighbour two edits away is not expanded to
            assertThat(index.search("CrashLoopBackOff", SearchScope.all(), 10)).extracting(Hit::chunkId)
                    .containsExactly("a.md#0");
            // a typo the index does not hold still finds both neighbours
            assertThat(index.search("CrashLoopBackOf", SearchScope.all(), 10)).extracting(Hit::chunkId)
                    .containsExactlyInAnyOrder("a.md#0", "b.md#0");
        }
    }
}
