package io.poimen.memory.retrieval.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** {@link ProjectCacheStats} writing {@code project_index_metadata} as migrated on each store. */
abstract class ProjectCacheStatsContract {

    abstract DataSource dataSource();

    @Test
    void servedContextsAddUpPerProjectInTheTableAndTheMeters() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        jdbc.update("delete from project_index_metadata");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ProjectCacheStats stats = new ProjectCacheStats(jdbc, meters);
        stats.served("poimen", 4, 1000, 0);
        stats.served("poimen", 4, 1000, 800);
        stats.served("rust-guide", 2, 300, 0);
        assertThat(jdbc.queryForObject("select count(*) from project_index_metadata", Long.class))
                .as("nothing written before the flush").isZero();
        stats.flush();
        Map<String, Object> row = jdbc.queryForMap("select chunks_served, tokens_served, tokens_reused, "
                + "cache_hit_ratio from project_index_metadata where project = 'poimen'");
        assertThat(((Number) row.get("chunks_served")).longValue()).isEqualTo(8);
        assertThat(((Number) row.get("tokens_served")).longValue()).isEqualTo(2000);
        assertThat(((Number) row.get("tokens_reused")).longValue()).isEqualTo(800);
        assertThat(((Number) row.get("cache_hit_ratio")).doubleValue()).isCloseTo(0.4, within(1e-9));

        // a second hub process (own counters) adds to the same row
        ProjectCacheStats other = new ProjectCacheStats(jdbc, new SimpleMeterRegistry());
        other.served("poimen", 1, 1000, 1000);
        Map<String, ProjectCacheStats.Totals> totals = other.totals();
        assertThat(totals.get("poimen")).isEqualTo(new ProjectCacheStats.Totals(9, 3000, 1800));
        assertThat(totals.get("poimen").hitRatio()).isCloseTo(0.6, within(1e-9));
        assertThat(totals.get("rust-guide").hitRatio()).isZero();
        assertThat(jdbc.queryForObject("select count(*) from project_index_metadata", Long.class)).isEqualTo(2);

        assertThat(meters.get("poimen.context.tokens.served").tag("project", "poimen").functionCounter().count())
                .isEqualTo(2000);
        assertThat(meters.get("poimen.context.tokens.reused").tag("project", "poimen").functionCounter().count())
                .isEqualTo(800);
        assertThat(meters.get("poimen.context.cache.hit.ratio").tag("project", "poimen").gauge().value())
                .as("over the stored history, the other process's row included").isCloseTo(0.6, within(1e-9));
    }

    @Test
    void aFailedWriteKeepsTheCountsForTheNextFlush() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        jdbc.update("delete from project_index_metadata");
        ProjectCacheStats stats = new ProjectCacheStats(jdbc, new SimpleMeterRegistry());
        stats.served("ml-training", 3, 90, 30);
        jdbc.execute("alter table project_index_metadata rename column tokens_reused to tokens_reused_x");
        try {
            stats.flush();
        } finally {
            jdbc.execute("alter table project_index_metadata rename column tokens_reused_x to tokens_reused");
        }
        jdbc.update("delete from project_index_metadata");
        stats.flush();
        assertThat(jdbc.queryForObject("select tokens_reused from project_index_metadata where project = "
                + "'ml-training'", Long.class)).isEqualTo(30);
    }
}
