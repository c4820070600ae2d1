package io.poimen.memory.retrieval.select;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ChunkMemoTest {
    private final AtomicInteger derived = new AtomicInteger();

    private String derive(String text) {
        derived.incrementAndGet();
        return text.toUpperCase();
    }

    @Test
    void aValueIsKeptForTheSameTextAndVariantOnly() {
        ChunkMemo<String> memo = new ChunkMemo<>(1 << 20, String::length);
        assertThat(memo.get("a#0", 5, "one", () -> derive("one"))).isEqualTo("ONE");
        assertThat(memo.get("a#0", 5, "one", () -> derive("one"))).isEqualTo("ONE");
        assertThat(derived).hasValue(1);
        assertThat(memo.get("a#0", 5, "two", () -> derive("two"))).isEqualTo("TWO");
        assertThat(memo.get("a#0", 3, "two", () -> derive("two"))).isEqualTo("TWO");
        assertThat(memo.get("a#0", 3, null, () -> derive(""))).isEmpty();
        assertThat(derived).hasValue(4);
    }

    @Test
    void itHoldsNoMoreThanItsBound() {
        ChunkMemo<String> memo = new ChunkMemo<>(10_000, String::length);
        for (int i = 0; i < 1000; i++) {
            String text = "text " + i;
            memo.get("n.md#" + i, null, text, () -> derive(text));
        }
        assertThat(memo.size()).isBetween(1L, 10_000L / 64);
        assertThat(new ChunkMemo<String>(0, String::length).size()).isZero();
    }
}
