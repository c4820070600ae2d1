package io.poimen.memory.agents;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.AuditedAccess;
import io.poimen.memory.security.CallerResolver;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Beans of the agent events ({@code routes/agents.camel.yaml}) and the live stream. */
@Configuration
public class AgentsConfig {

    @Bean
    AgentLogStore agentLogStore(DataSource dataSource, ObjectMapper json) {
        return new AgentLogStore(dataSource, json);
    }

    @Bean(destroyMethod = "close")
    AgentStream agentStream(ObjectMapper json, PoimenProperties props) {
        return new AgentStream(json, props.agents().streamTimeout(), props.agents().heartbeat());
    }

    @Bean
    AgentEventAccess agentEventAccess(AccessChecks checks, AuditedAccess access, SearchScopes scopes,
                                      GraphService graph) {
        return new AgentEventAccess(checks, access, scopes, () -> graph.current().notes());
    }

    @Bean
    AgentEvents agentEvents(AgentLogStore store, AgentStream stream, CallerResolver callers, AgentEventAccess access,
                            ObjectMapper json) {
        return new AgentEvents(store, stream, callers, access, json);
    }
}
