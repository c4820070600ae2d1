package io.poimen.memory.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;

/** The SDK's own client over Streamable HTTP, optionally with a bearer token on every request. */
public final class McpClients {
    private McpClients() {
    }

    public static McpSyncClient connect(String baseUrl, String bearer) {
        HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport.builder(baseUrl)
                .endpoint("/mcp");
        if (bearer != null) {
            transport.customizeRequest(r -> r.header("Authorization", "Bearer " + bearer));
        }
        McpSyncClient client = McpClient.sync(transport.build())
                .clientInfo(new McpSchema.Implementation("test-agent", "1.0"))
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    public static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }
}
