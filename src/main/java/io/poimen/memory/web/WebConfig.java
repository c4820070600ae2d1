package io.poimen.memory.web;

import io.poimen.memory.config.PoimenProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.retrieval.NoteLookup;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.retrieval.filter.NoteCatalog;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import java.time.Clock;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
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

    /** Ahead of the DispatcherServlet for its exact path: the query API without Spring MVC and platform-http. */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    ServletRegistrationBean<QueryServlet> queryServlet(ProducerTemplate producer) {
        ServletRegistrationBean<QueryServlet> servlet =
                new ServletRegistrationBean<>(new QueryServlet(producer, "direct:query"), QueryServlet.PATH);
        servlet.setName("memory-query");
        return servlet;
    }

    /**
     * The query operation of the OpenAPI document ({@code GET /memory/openapi.json} lists the rest definitions).
     * {@link QueryServlet} takes the requests: its exact path wins over the platform-http consumer this definition
     * also makes. Kept in code, next to the servlet, so that the route file an operator edits
     * ({@code routes/query.camel.yaml}) declares nothing that does not run.
     */
    @Bean
    RouteBuilder queryApiDocument() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                rest("/memory").id("query-api")
                        .post("/query").id("post-query").consumes("application/json").produces("application/json")
                        .to("direct:query");
            }
        };
    }

    /** Ahead of the DispatcherServlet for its exact path: attachments streamed from the open file. */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    ServletRegistrationBean<AttachmentServlet> attachmentServlet(ProducerTemplate producer) {
        ServletRegistrationBean<AttachmentServlet> servlet = new ServletRegistrationBean<>(
                new AttachmentServlet(producer, "direct:vault-attachment"), AttachmentServlet.PATH);
        servlet.setName("vault-attachment");
        return servlet;
    }

    @Bean
    VaultAttachments vaultAttachments(PoimenProperties props, CallerResolver callers, Access checks) {
        return new VaultAttachments(props.vault().path(), callers, checks, props.vault().maxAttachmentBytes());
    }

    @Bean
    VaultFiles vaultFiles(PoimenProperties props) {
        return new VaultFiles(props.vault().path());
    }

    @Bean
    VaultBrowser vaultBrowser(GraphService graph, NoteStore notes, VaultFiles files, CallerResolver callers,
                              Access checks, SearchScopes scopes, NoteLookup names) {
        return new VaultBrowser(graph, notes, files, callers, checks, scopes, names);
    }

    @Bean
    VaultActivity vaultActivity(VaultBrowser browser, GraphService graph, NoteCatalog catalog) {
        return new VaultActivity(browser, graph, catalog, Clock.systemUTC());
    }
}
