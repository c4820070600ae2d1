package io.poimen.memory.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Cache;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BoundedCachesTest {
    @Test
    void bothTheEntryBoundAndTheElementBoundHoldAfterEveryPut() {
        Cache<Integer, List<Integer>> cache = BoundedCaches.of(4, 100, List::size);
        for (int i = 0; i < 10; i++) {
            cache.put(i, List.of(i));
            assertThat(cache.estimatedSize()).isLessThanOrEqualTo(4);
        }
        assertThat(cache.asMap()).as("small values: the entry bound").hasSize(4);
        assertThat(BoundedCaches.weight(cache)).isEqualTo(100);

        Cache<Integer, List<Integer>> large = BoundedCaches.of(4, 100, List::size);
        for (int i = 0; i < 10; i++) {
            large.put(i, IntStream.range(0, 40).boxed().toList());
            assertThat(BoundedCaches.weight(large)).isLessThanOrEqualTo(100);
        }
        assertThat(large.asMap()).as("large values: the element bound").hasSize(2);
        assertThat(BoundedCaches.weight(large)).isEqualTo(80);
    }

    @Test
    void hitsAndMissesAreRecorded() {
        Cache<String, List<Integer>> cache = BoundedCaches.of(4, 100, List::size);
        cache.get("a", k -> List.of(1));
        cache.get("a", k -> List.of(2));
        assertThat(cache.stats().hitCount()).isEqualTo(1);
        assertThat(cache.stats().missCount()).isEqualTo(1);
    }
}
