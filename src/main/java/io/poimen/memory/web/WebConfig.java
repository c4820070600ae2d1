package io.poimen.memory.web;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.CallerResolver;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Beans of the read API ({@code routes/vault.camel.yaml}). */
@Configuration
public class WebConfig {

    /** Used by platform-http through camel.component.platform-http.header-filter-strategy. */
    @Bean
    ApiHeaderFilterStrategy apiHeaderFilterStrategy() {
        return new ApiHeaderFilterStrategy();
    }

    @Bean
    VaultFiles vaultFiles(PoimenProperties props) {
        return new VaultFiles(props.vault().path());
    }

    @Bean
    VaultBrowser vaultBrowser(GraphService graph, NoteStore notes, VaultFiles files, CallerResolver callers,
                              AccessChecks checks, SearchScopes scopes) {
        return new VaultBrowser(graph, notes, files, callers, checks, scopes);
    }
}
