package io.poimen.memory.agents;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/** Beans of the agent events ({@code routes/agents.camel.yaml}) and the live stream. */
@Configuration
public class AgentsConfig {

    @Bean
    AgentLogStore agentLogStore(DataSource dataSource, ObjectMapper json) {
        return new AgentLogStore(dataSource, json, postgres(dataSource));
    }

    @Bean(destroyMethod = "close")
    AgentStream agentStream(ObjectMapper json, PoimenProperties props) {
        return new AgentStream(json, props.agents().streamTimeout(), props.agents().heartbeat());
    }

    /**
     * On PostgreSQL every replica hears of every event through {@code LISTEN} on a connection of its own, opened with
     * {@code spring.datasource.url}, {@code username} and {@code password}; on H2 the events are this process's.
     */
    @Bean(destroyMethod = "close")
    AgentEventFeed agentEventFeed(AgentLogStore store, AgentStream stream, DataSource dataSource,
                                  DataSourceProperties database, PoimenProperties props) {
        AgentEventFeed.Signal signal = postgres(dataSource) ? new PostgresNotifications(() -> DriverManager
                .getConnection(database.determineUrl(), database.determineUsername(), database.determinePassword()))
                : AgentEventFeed.inProcess();
        return new AgentEventFeed(store, stream, signal, props.agents().replayWindow(),
                props.agents().replayMaxEvents());
    }

    private static boolean postgres(DataSource dataSource) {
        try {
            return "PostgreSQL".equalsIgnoreCase(JdbcUtils.extractDatabaseMetaData(dataSource,
                    DatabaseMetaData::getDatabaseProductName));
        } catch (MetaDataAccessException e) {
            throw new IllegalStateException("the notes database's kind is not readable", e);
        }
    }

    @Bean
    AgentEventAccess agentEventAccess(Access access, SearchScopes scopes,
                                      GraphService graph) {
        return new AgentEventAccess(access, scopes, () -> graph.current().notes());
    }

    @Bean
    AgentEvents agentEvents(AgentLogStore store, AgentEventFeed feed, CallerResolver callers, AgentEventAccess access,
                            ObjectMapper json) {
        return new AgentEvents(store, feed, callers, access, json);
    }
}
