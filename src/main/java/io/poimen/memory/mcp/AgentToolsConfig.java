package io.poimen.memory.mcp;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.retrieval.NoteLookup;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The beans behind the MCP tools build_context and recent_changes ({@code routes/agent-tools.camel.yaml}). */
@Configuration
public class AgentToolsConfig {

    @Bean
    NoteNeighbourhood noteNeighbourhood(GraphService graph, NoteStore notes, CallerResolver callers,
                                        Access checks, PoimenProperties poimen, NoteLookup names) {
        return new NoteNeighbourhood(graph, notes, callers, checks, poimen.vault().path(), names);
    }

    @Bean
    VaultHistory vaultHistory(PoimenProperties poimen, CallerResolver callers, Access checks,
                              GraphService graph) {
        return new VaultHistory(poimen.vault().path().toAbsolutePath().normalize(), callers, checks,
                () -> graph.current().notes());
    }
}
