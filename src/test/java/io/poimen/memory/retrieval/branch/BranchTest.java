package io.poimen.memory.retrieval.branch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.index.Hit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BranchTest {

    @Test
    void keysAreTheJsonNames() {
        assertThat(Branch.TFIDF.key()).isEqualTo("tfidf");
        assertThat(Branch.SEMANTIC.key()).isEqualTo("semantic");
        assertThat(Branch.LEXICAL.key()).isEqualTo("lexical");
        assertThat(Branch.ofKey(" Semantic ")).isSameAs(Branch.SEMANTIC);
    }

    @Test
    void aRouteMayNameANewBranchButNotWithAnyString() {
        assertThat(Branch.ofKey("recent-notes")).isSameAs(Branch.ofKey("Recent-Notes")).hasToString("recent-notes");
        assertThatThrownBy(() -> Branch.ofKey("2fast")).hasMessageContaining("'2fast'");
        assertThatThrownBy(() -> Branch.ofKey("a b")).hasMessageContaining("'a b'");
        assertThatThrownBy(() -> Branch.ofKey(null)).hasMessageContaining("bad branch name");
    }

    @Test
    void resultCopiesHitsAndTellsFailureApart() {
        List<Hit> hits = new ArrayList<>(List.of(new Hit("a#0", 1.0)));
        BranchResult ok = BranchResult.ok(Branch.LEXICAL, hits, 3);
        hits.clear();
        assertThat(ok.hits()).extracting(Hit::chunkId).containsExactly("a#0");
        assertThat(ok.answered()).isTrue();

        BranchResult failed = BranchResult.failed(Branch.SEMANTIC, "timeout after 2000 ms", 2000);
        assertThat(failed.answered()).isFalse();
        assertThat(failed.hits()).isEmpty();
        assertThat(failed.error()).isEqualTo("timeout after 2000 ms");
        assertThat(BranchResult.failed(Branch.TFIDF, " ", 1).error()).isEqualTo("failed");
    }
}
