package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SelectionItemTest {

    @Test
    void rejectsBadNumbersNamingTheChunk() {
        assertThatThrownBy(() -> new SelectionItem("n.md#2", "n.md", 2, Double.NaN, 3, "t", List.of(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n.md#2");
        assertThatThrownBy(() -> new SelectionItem("n.md#2", "n.md", 2, 0.5, -1, "t", List.of(), null))
                .hasMessageContaining("n.md#2").hasMessageContaining("-1");
    }

    @Test
    void nullsBecomeEmptyAndWithScoreKeepsTheRest() {
        SelectionItem item = new SelectionItem("a#0", null, 0, 0.5, 3, null, null, "tool");
        assertThat(item.path()).isEmpty();
        assertThat(item.text()).isEmpty();
        assertThat(item.keyTerms()).isEmpty();
        SelectionItem boosted = item.withScore(0.75);
        assertThat(boosted.score()).isEqualTo(0.75);
        assertThat(boosted).usingRecursiveComparison().ignoringFields("score").isEqualTo(item);
    }
}
