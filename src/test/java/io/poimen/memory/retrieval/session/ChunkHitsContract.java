package io.poimen.memory.retrieval.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** {@link ChunkHits} writing and reading {@code chunk_hits} as migrated on each store. */
abstract class ChunkHitsContract {

    abstract DataSource dataSource();

    private JdbcTemplate jdbc;

    @BeforeEach
    void empty() {
        jdbc = new JdbcTemplate(dataSource());
        jdbc.update("delete from chunk_hits");
    }

    private long rowCount() {
        return jdbc.queryForObject("select count(*) from chunk_hits", Long.class);
    }

    @Test
    void selectionsCountAtOnceInMemory_areAddedPerProjectAtTheFlush_andReachTheOtherReplicas() {
        ChunkHits one = new ChunkHits(jdbc, new SimpleMeterRegistry());
        ChunkHits two = new ChunkHits(jdbc, new SimpleMeterRegistry());
        one.load();
        two.load();
        one.selected("poimen", List.of("a.md#0", "b.md#0"));
        one.selected("poimen", List.of("a.md#0"));
        one.selected("rust-guide", List.of("a.md#0"));
        assertThat(one.count("poimen", "a.md#0")).isEqualTo(2);
        assertThat(one.count("rust-guide", "a.md#0")).as("per project").isEqualTo(1);
        assertThat(one.count("poimen", "c.md#0")).isZero();
        assertThat(rowCount()).as("nothing written before the flush").isZero();

        one.flush();
        assertThat(jdbc.queryForObject("select hits from chunk_hits where project = 'poimen' and chunk_id = 'a.md#0'",
                Long.class)).isEqualTo(2);
        assertThat(one.count("poimen", "a.md#0")).as("not counted twice after the flush").isEqualTo(2);
        assertThat(two.count("poimen", "a.md#0")).as("the other replica reads at its flush").isZero();

        two.selected("poimen", List.of("a.md#0"));
        two.flush();
        assertThat(two.count("poimen", "a.md#0")).isEqualTo(3);
        assertThat(two.count("rust-guide", "a.md#0")).isEqualTo(1);
        one.flush();
        assertThat(one.count("poimen", "a.md#0")).isEqualTo(3);

        ChunkHits restarted = new ChunkHits(jdbc, new SimpleMeterRegistry());
        restarted.load();
        assertThat(restarted.count("poimen", "a.md#0")).isEqualTo(3);
        assertThat(restarted.count("poimen", "b.md#0")).isEqualTo(1);
        assertThat(rowCount()).isEqualTo(3);
    }

    @Test
    void aFailedWriteKeepsTheCountsInMemoryAndWritesThemAtTheNextFlush() {
        ChunkHits hits = new ChunkHits(jdbc, new SimpleMeterRegistry());
        hits.load();
        hits.selected("poimen", List.of("a.md#0", "a.md#1"));
        hits.flush();
        hits.selected("poimen", List.of("a.md#0", "b.md#0"));
        jdbc.execute("alter table chunk_hits rename column hits to hits_x");
        try {
            hits.flush();
            assertThat(hits.count("poimen", "a.md#0")).isEqualTo(2);
            assertThat(hits.count("poimen", "b.md#0")).isEqualTo(1);
        } finally {
            jdbc.execute("alter table chunk_hits rename column hits_x to hits");
        }
        assertThat(jdbc.queryForObject("select hits from chunk_hits where chunk_id = 'a.md#0'", Long.class))
                .as("the failed flush wrote nothing (one transaction)").isEqualTo(1);
        hits.flush();
        assertThat(jdbc.queryForObject("select hits from chunk_hits where chunk_id = 'a.md#0'", Long.class)).isEqualTo(2);
        assertThat(jdbc.queryForObject("select hits from chunk_hits where chunk_id = 'b.md#0'", Long.class)).isEqualTo(1);
        assertThat(hits.count("poimen", "a.md#0")).isEqualTo(2);
    }

    @Test
    void atMostMaxPendingPairsWaitForAFlush_furtherNewPairsAreDroppedAndCounted() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ChunkHits hits = new ChunkHits(jdbc, meters, 2);
        hits.selected("poimen", List.of("a.md#0", "b.md#0", "c.md#0"));
        hits.selected("poimen", List.of("a.md#0", "c.md#0"));
        assertThat(hits.count("poimen", "a.md#0")).as("a waiting pair still counts").isEqualTo(2);
        assertThat(hits.count("poimen", "c.md#0")).isZero();
        assertThat(meters.get("poimen.context.hits.dropped").counter().count()).isEqualTo(2);
        hits.flush();
        hits.selected("poimen", List.of("c.md#0"));
        assertThat(hits.count("poimen", "c.md#0")).as("room again after the flush").isEqualTo(1);
    }
}
