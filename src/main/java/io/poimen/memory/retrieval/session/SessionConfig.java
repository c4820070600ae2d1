package io.poimen.memory.retrieval.session;

import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.retrieval.QueryPipeline;
import io.poimen.memory.retrieval.select.SessionContexts;
import io.poimen.memory.security.CallerResolver;
import io.poimen.memory.vault.TokenCounter;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Session-stable contexts and the per-project cache alignment figures. Limits: {@code poimen.session.max-sessions}
 * (default 2,000), {@code poimen.session.ttl} (30 min after the last turn), {@code poimen.session.max-tokens}
 * (prompt tokens kept per session, 8,192): at most 2,000 × 8,192 token ids (64 MB) in memory.
 * {@code poimen.session.carry-share} (0.75): the share of the token budget and top-k that chunks carried from the
 * session's previous context without being selected may take ({@code SessionSelection}), each scoring at least
 * {@code poimen.session.carry-min-score} (0) × the lowest selected score; 0 keeps only chunks the plain selection
 * picked.
 */
@Configuration
public class SessionConfig {

    @Bean
    SessionContexts sessionContexts(PoimenProperties props) {
        PoimenProperties.Session s = props.session();
        return new SessionContexts(s.maxSessions(), s.ttl(), s.maxTokens(), Clock.systemUTC());
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
    SessionContextStep sessionContextStep(SessionContexts sessions, CallerResolver callers, TokenCounter tokens,
                                          ProjectCacheStats stats, ChunkHits hits, PoimenProperties props,
                                          QueryPipeline pipeline) {
        return new SessionContextStep(sessions, callers, tokens, stats, hits, props.session().carryShare(),
                props.session().carryMinScore(), pipeline);
    }

    @Bean
    ProjectsWithCache projectsWithCache(ProjectCacheStats stats) {
        return new ProjectsWithCache(stats);
    }
}
