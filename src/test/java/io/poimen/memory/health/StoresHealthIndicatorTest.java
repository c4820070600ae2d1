package io.poimen.memory.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.lucene.LuceneLexicalIndex;
import io.poimen.memory.index.lucene.LuceneVectorIndex;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/** Real Lucene stores; a closed store is a store that stopped answering. */
class StoresHealthIndicatorTest {

    @Test
    void upWhenBothStoresAnswer() {
        try (var vectors = LuceneVectorIndex.inMemory(4); var lexical = LuceneLexicalIndex.inMemory()) {
            Health health = new StoresHealthIndicator(vectors, lexical).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(detail(health, "lexical")).containsEntry("store", "lucene-bm25").containsEntry("chunks", 0L);
        }
    }

    @Test
    void degradedWhenOneStoreFailsAndDownWhenBothDo() {
        var vectors = LuceneVectorIndex.inMemory(4);
        var lexical = LuceneLexicalIndex.inMemory();
        lexical.close();

        Health one = new StoresHealthIndicator(vectors, lexical).health();
        assertThat(one.getStatus().getCode()).isEqualTo(StoresHealthIndicator.DEGRADED);
        assertThat(detail(one, "lexical")).containsEntry("status", "DOWN").containsKey("error");
        assertThat(detail(one, "vector")).containsEntry("status", "UP");

        vectors.close();
        assertThat(new StoresHealthIndicator(vectors, lexical).health().getStatus()).isEqualTo(Status.DOWN);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> detail(Health health, String key) {
        return (Map<String, Object>) health.getDetails().get(key);
    }
}
