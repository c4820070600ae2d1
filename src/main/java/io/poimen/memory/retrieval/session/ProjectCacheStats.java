package io.poimen.memory.retrieval.session;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Measured cache alignment per project: chunks served in contexts, prompt tokens served, tokens that were a common
 * prefix with the session's previous context, and the hit ratio {@code reused / served}. Queries only add to
 * counters in memory; {@link #flush} (a timer route, and at shutdown) adds them to the project's row of
 * {@code project_index_metadata}, so a store fault never slows or breaks a query.
 *
 * <p>Meters (in {@code /actuator/prometheus}), tag {@code project}: {@code poimen.context.chunks.served},
 * {@code poimen.context.tokens.served}, {@code poimen.context.tokens.reused} (counters of this process) and
 * {@code poimen.context.cache.hit.ratio} (gauge, over the project's whole stored history plus this process).
 */
public class ProjectCacheStats {
    private static final Logger LOG = LoggerFactory.getLogger(ProjectCacheStats.class);

    /** A project's figures; {@code hitRatio} is null before any token was served. */
    public record Totals(long chunksServed, long tokensServed, long tokensReused) {
        public Double hitRatio() {
            return tokensServed == 0 ? null : (double) tokensReused / tokensServed;
        }

        Totals plus(Totals o) {
            return new Totals(chunksServed + o.chunksServed, tokensServed + o.tokensServed,
                    tokensReused + o.tokensReused);
        }
    }

    /** Counts of one project: since start (meters) and not yet written. */
    private static final class Counts {
        final AtomicLong chunks = new AtomicLong();
        final AtomicLong tokens = new AtomicLong();
        final AtomicLong reused = new AtomicLong();
        Totals unflushed = new Totals(0, 0, 0);
        Totals stored;
    }

    private final JdbcTemplate jdbc;
    private final MeterRegistry registry;
    private final Map<String, Counts> projects = new ConcurrentHashMap<>();

    public ProjectCacheStats(JdbcTemplate jdbc, MeterRegistry registry) {
        this.jdbc = jdbc;
        this.registry = registry;
    }

    /** One served context. */
    public void served(String project, int chunks, int tokens, int reusedTokens) {
        Counts c = counts(project);
        c.chunks.addAndGet(chunks);
        c.tokens.addAndGet(tokens);
        c.reused.addAndGet(reusedTokens);
        synchronized (c) {
            c.unflushed = c.unflushed.plus(new Totals(chunks, tokens, reusedTokens));
        }
    }

    /** Adds what was served since the last flush to each project's row; what fails to write is kept for later. */
    public synchronized void flush() {
        for (Map.Entry<String, Counts> e : projects.entrySet()) {
            Counts c = e.getValue();
            Totals delta;
            synchronized (c) {
                delta = c.unflushed;
                c.unflushed = new Totals(0, 0, 0);
            }
            if (delta.chunksServed() == 0 && delta.tokensServed() == 0) {
                continue;
            }
            try {
                write(e.getKey(), delta);
                synchronized (c) {
                    c.stored = c.stored == null ? null : c.stored.plus(delta);
                }
            } catch (DataAccessException ex) {
                synchronized (c) {
                    c.unflushed = c.unflushed.plus(delta);
                }
                LOG.warn("project_index_metadata not updated for {} (kept for the next flush): {}", e.getKey(),
                        ex.getMessage());
            }
        }
    }

    @PreDestroy
    void close() {
        flush();
    }

    /** Every project's stored figures plus what is not written yet. */
    public Map<String, Totals> totals() {
        flush();
        Map<String, Totals> out = new HashMap<>();
        jdbc.query("select project, chunks_served, tokens_served, tokens_reused from project_index_metadata "
                + "where project is not null", rs -> {
                    out.put(rs.getString(1), new Totals(rs.getLong(2), rs.getLong(3), rs.getLong(4)));
                });
        projects.forEach((p, c) -> {
            synchronized (c) {
                out.merge(p, c.unflushed, Totals::plus);
            }
        });
        return out;
    }

    private void write(String project, Totals d) {
        int updated = jdbc.update("update project_index_metadata set chunks_served = chunks_served + ?, "
                + "tokens_served = tokens_served + ?, tokens_reused = tokens_reused + ? where project = ?",
                d.chunksServed(), d.tokensServed(), d.tokensReused(), project);
        if (updated == 0) {
            try {
                jdbc.update("insert into project_index_metadata (project, chunks_served, tokens_served, tokens_reused)"
                        + " values (?, ?, ?, ?)", project, d.chunksServed(), d.tokensServed(), d.tokensReused());
            } catch (org.springframework.dao.DuplicateKeyException raced) {
                write(project, d); // another hub process inserted the row first
                return;
            }
        }
        jdbc.update("update project_index_metadata set cache_hit_ratio = cast(tokens_reused as double precision) "
                + "/ tokens_served where project = ? and tokens_served > 0", project);
    }

    private Counts counts(String project) {
        return projects.computeIfAbsent(project, p -> {
            Counts c = new Counts();
            FunctionCounter.builder("poimen.context.chunks.served", c, x -> x.chunks.get())
                    .description("Chunks put into query contexts").tag("project", p).register(registry);
            FunctionCounter.builder("poimen.context.tokens.served", c, x -> x.tokens.get())
                    .description("Prompt tokens of query contexts").tag("project", p).register(registry);
            FunctionCounter.builder("poimen.context.tokens.reused", c, x -> x.reused.get())
                    .description("Context tokens that were a common prefix with the session's previous context")
                    .tag("project", p).register(registry);
            Gauge.builder("poimen.context.cache.hit.ratio", c, this::lifetimeRatio)
                    .description("Tokens reused as prefix / tokens served, over the project's stored history")
                    .tag("project", p).register(registry);
            return c;
        });
    }

    private double lifetimeRatio(Counts c) {
        Totals stored;
        synchronized (c) {
            stored = c.stored;
        }
        if (stored == null) {
            stored = storedRow(c);
        }
        Totals all;
        synchronized (c) {
            all = stored.plus(c.unflushed);
        }
        Double r = all.hitRatio();
        return r == null ? Double.NaN : r;
    }

    private Totals storedRow(Counts c) {
        String project = projects.entrySet().stream().filter(e -> e.getValue() == c).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
        Totals row;
        try {
            row = jdbc.query("select chunks_served, tokens_served, tokens_reused from project_index_metadata "
                    + "where project = ?", rs -> rs.next() ? new Totals(rs.getLong(1), rs.getLong(2), rs.getLong(3))
                    : new Totals(0, 0, 0), project);
        } catch (DataAccessException e) {
            return new Totals(0, 0, 0);
        }
        synchronized (c) {
            c.stored = row;
        }
        return row;
    }
}
