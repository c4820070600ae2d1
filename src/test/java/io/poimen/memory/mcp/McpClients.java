package io.poimen.memory.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.function.Supplier;

/** The SDK's own client over Streamable HTTP, optionally with a bearer token on every request. */
public final class McpClients {
    private McpClients() {
    }

    public static McpSyncClient connect(String baseUrl, String bearer) {
        return connect(baseUrl, bearer, null);
    }

    /** As {@link #connect(String, String)}, every request with this W3C {@code traceparent} (null: none). */
    public static McpSyncClient connect(String baseUrl, String bearer, String traceparent) {
        HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport.builder(baseUrl)
                .endpoint("/mcp");
        transport.customizeRequest(r -> {
            if (bearer != null) {
                r.header("Authorization", "Bearer " + bearer);
            }
            if (traceparent != null) {
                r.header("traceparent", traceparent);
            }
        });
        McpSyncClient client = McpClient.sync(transport.build())
                .clientInfo(new McpSchema.Implementation("test-agent", "1.0"))
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    /**
     * A client named {@code clientName} whose every request carries the bearer {@code bearer} gives then (a token
     * that is renewed while a long session runs).
     */
    public static McpSyncClient connect(String baseUrl, Supplier<String> bearer, String clientName) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(baseUrl).endpoint("/mcp")
                        .httpRequestCustomizer((request, method, uri, body, context) ->
                                request.setHeader("Authorization", "Bearer " + bearer.get()))
                        .build())
                .clientInfo(new McpSchema.Implementation(clientName, "1.0"))
                .requestTimeout(Duration.ofSeconds(120))
                .build();
        client.initialize();
        return client;
    }

    public static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }
}
