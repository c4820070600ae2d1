package io.poimen.memory.mcp;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.poimen.memory.config.PoimenProperties;
import javax.sql.DataSource;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.web.VaultFiles;
import org.apache.camel.ProducerTemplate;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The MCP server at {@code /mcp} (Streamable HTTP, the SDK's stateless server transport as a servlet beside Spring
 * MVC), behind the same security filter chain as the REST API. The caller the chain resolved from the request's
 * bearer goes into the MCP transport context ({@link HubCalls#context}), from where the tools pass it on to the
 * routes. Sessions are the hub's, in the notes database, each bound to the caller who opened it
 * ({@link McpSessionBinding}, {@link McpSessions}): any replica answers any request of a session.
 */
@Configuration
public class McpConfig {
    static final String ENDPOINT = "/mcp";

    /** Its own mapper: MCP messages are camelCase, unlike the hub's snake_case API. */
    @Bean
    McpJsonMapper mcpJsonMapper() {
        // the transport writes a refused request's McpError as JSON: its message and JSON-RPC error only, never
        // the stack trace or cause
        return new JacksonMcpJsonMapper(new ObjectMapper().addMixIn(Throwable.class, ErrorWithoutTrace.class)
                .addMixIn(McpError.class, McpErrorAsJsonRpc.class));
    }

    @JsonIgnoreProperties({"stackTrace", "cause", "suppressed", "localizedMessage"})
    abstract static class ErrorWithoutTrace {
    }

    /** {@code {"error": {code, message}, "message": …}}, the JSON-RPC error's shape. */
    abstract static class McpErrorAsJsonRpc {
        @JsonProperty("error")
        abstract McpSchema.JSONRPCResponse.JSONRPCError getJsonRpcError();
    }

    @Bean
    HttpServletStatelessServerTransport mcpTransport(McpJsonMapper mcpJsonMapper) {
        return HttpServletStatelessServerTransport.builder()
                .jsonMapper(new McpEnvelopeFilter.ParsedBodies(mcpJsonMapper))
                .messageEndpoint(ENDPOINT)
                .contextExtractor(HubCalls::context)
                .build();
    }

    @Bean
    ServletRegistrationBean<HttpServletStatelessServerTransport> mcpServlet(
            HttpServletStatelessServerTransport transport) {
        ServletRegistrationBean<HttpServletStatelessServerTransport> servlet =
                new ServletRegistrationBean<>(transport, ENDPOINT);
        servlet.setName("mcp");
        servlet.setAsyncSupported(true);
        return servlet;
    }

    /** After the security chain (a caller without a bearer gets its 401 first), before the transport. */
    @Bean
    FilterRegistrationBean<McpEnvelopeFilter> mcpEnvelopeFilter(McpJsonMapper mcpJsonMapper) {
        FilterRegistrationBean<McpEnvelopeFilter> reg = new FilterRegistrationBean<>(new McpEnvelopeFilter(mcpJsonMapper));
        reg.addUrlPatterns(ENDPOINT);
        reg.setOrder(0);
        return reg;
    }

    @Bean
    McpSessions mcpSessions(DataSource dataSource, PoimenProperties props) {
        return new McpSessions(dataSource, props.mcp().sessionIdleTimeout());
    }

    /** After the envelope check: a session id reaches the transport only from the caller who opened it. */
    @Bean
    FilterRegistrationBean<McpSessionBinding> mcpSessionBinding(McpSessions sessions, McpJsonMapper mcpJsonMapper) {
        FilterRegistrationBean<McpSessionBinding> reg = new FilterRegistrationBean<>(
                new McpSessionBinding(sessions, mcpJsonMapper));
        reg.addUrlPatterns(ENDPOINT);
        reg.setOrder(1);
        return reg;
    }

    @Bean
    MemoryTools memoryTools(ProducerTemplate producer, McpJsonMapper mcpJsonMapper, VaultFiles vaultFiles) {
        return new MemoryTools(new HubCalls(producer), mcpJsonMapper, vaultFiles);
    }

    @Bean
    AgentTools agentTools(ProducerTemplate producer, McpJsonMapper mcpJsonMapper) {
        return new AgentTools(new HubCalls(producer), mcpJsonMapper);
    }

    @Bean
    BrowseTools browseTools(ProducerTemplate producer, McpJsonMapper mcpJsonMapper) {
        return new BrowseTools(new HubCalls(producer), mcpJsonMapper);
    }

    /** Tools run on the request's own thread (immediate execution): the transport waits for them anyway. */
    @Bean(destroyMethod = "close")
    McpStatelessSyncServer mcpServer(HttpServletStatelessServerTransport transport, McpJsonMapper mcpJsonMapper,
                                     MemoryTools tools, AgentTools agentTools, BrowseTools browseTools) {
        return McpServer.sync(transport)
                .immediateExecution(true)
                .serverInfo("poimen-memory", "0.1.0")
                .jsonMapper(mcpJsonMapper)
                .instructions("Team memory: search_memory for chunks in a project, read_note for a whole note, "
                        + "list_skills for shared skills, build_context for a note and its links, recent_changes "
                        + "for what changed, recent_activity and list_directory to browse by time and folder; propose_edit opens a draft for review, draft_status follows it. Your "
                        + "bearer token decides what you may read and write.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(java.util.stream.Stream.of(tools, agentTools, browseTools)
                        .flatMap(t -> t.specifications().stream()).toList())
                .build();
    }
}
