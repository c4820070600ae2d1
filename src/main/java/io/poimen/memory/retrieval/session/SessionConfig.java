package io.poimen.memory.retrieval.session;

import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.retrieval.ChunkRows;
import io.poimen.memory.ops.Availability;
import io.poimen.memory.retrieval.select.InMemorySessionContexts;
import io.poimen.memory.retrieval.select.SessionContexts;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.vault.TokenCounter;
import java.sql.DatabaseMetaData;
import java.time.Clock;
import javax.sql.DataSource;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * Session-stable contexts and the per-project cache alignment figures. Limits: {@code poimen.session.max-sessions}
 * (default 2,000), {@code poimen.session.ttl} (30 min after the last turn), {@code poimen.session.max-tokens}
 * (prompt tokens kept per session, 8,192): at most 2,000 × 8,192 token ids (64 MB) in memory, or in the
 * {@code session_contexts} table when {@code poimen.session.store} puts them in the database (PostgreSQL: every
 * replica continues every session).
 * {@code poimen.session.carry-share} (0.75): the share of the token budget and top-k that chunks carried from the
 * session's previous context without being selected may take ({@code SessionSelection}), each scoring at least
 * {@code poimen.session.carry-min-score} (0) × the lowest selected score; 0 keeps only chunks the plain selection
 * picked.
 */
@Configuration
public class SessionConfig {

    @Bean
    SessionContexts sessionContexts(PoimenProperties props, DataSource dataSource) {
        PoimenProperties.Session s = props.session();
        if (shared(s.store(), dataSource)) {
            return new JdbcSessionContexts(dataSource, s.maxSessions(), s.ttl(), s.maxTokens(),
                    new Availability(props.query().storeCoolDownMs().toMillis()));
        }
        return new InMemorySessionContexts(s.maxSessions(), s.ttl(), s.maxTokens(), Clock.systemUTC());
    }

    /** {@code auto}: in the database when it is PostgreSQL (the store replicas share), else in this process. */
    static boolean shared(String store, DataSource dataSource) {
        return switch (store) {
            case "database" -> true;
            case "memory" -> false;
            default -> {
                try {
                    String product = JdbcUtils.extractDatabaseMetaData(dataSource,
                            DatabaseMetaData::getDatabaseProductName);
                    yield "PostgreSQL".equalsIgnoreCase(product);
                } catch (MetaDataAccessException e) {
                    throw new IllegalStateException("poimen.session.store=auto cannot tell the notes database's "
                            + "kind; set poimen.session.store to memory or database", e);
                }
            }
        };
    }

    /** The writer drops expired sessions and the least recently used beyond the maximum. */
    @Bean
    RouteBuilder sessionTrimRoute(PoimenProperties props, SessionContexts sessions) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("master:" + props.cluster().namespace() + ":timer:session-trim?period="
                        + props.session().trimPeriod().toMillis()).routeId("session-trim").bean(sessions, "trim");
            }
        };
    }

    /**
     * Every replica: queries count cache alignment and chunk selections in memory; this timer adds the counts to
     * project_index_metadata and chunk_hits (and reads the chunk counts other replicas added). Owned by the code
     * (docs/architecture.md, "Who owns a flow"), not reloaded from routes/.
     */
    @Bean
    RouteBuilder contextStatsRoute(PoimenProperties props, ProjectCacheStats projects, ChunkHits chunks) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                long period = props.session().statsFlushMs().toMillis();
                from("timer:context-stats?period=" + period + "&delay=" + period).routeId("context-stats-flush")
                        .bean(projects, "flush").bean(chunks, "flush");
            }
        };
    }

    @Bean
    ProjectCacheStats projectCacheStats(JdbcTemplate jdbc, MeterRegistry registry) {
        return new ProjectCacheStats(jdbc, registry);
    }

    /** Selection counts per project and chunk (the TF-IDF branch's hit factor), flushed with the figures above. */
    @Bean
    ChunkHits chunkHits(JdbcTemplate jdbc, MeterRegistry registry) {
        return new ChunkHits(jdbc, registry);
    }

    @Bean
    SessionContextStep sessionContextStep(SessionContexts sessions, TokenCounter tokens, ProjectCacheStats stats,
                                          ChunkHits hits, PoimenProperties props, ChunkRows rows) {
        return new SessionContextStep(sessions, tokens, stats, hits, props.session().carryShare(),
                props.session().carryMinScore(), rows);
    }

    @Bean
    ProjectsWithCache projectsWithCache(ProjectCacheStats stats, CallerResolver callers,
                                        io.poimen.memory.security.Access checks) {
        return new ProjectsWithCache(stats, callers, checks);
    }
}
