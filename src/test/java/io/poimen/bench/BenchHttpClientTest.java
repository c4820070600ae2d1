package io.poimen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bench's HTTP client against a real HTTP/1.1 server on a free loopback port (the JDK's own). */
class BenchHttpClientTest {
    private HttpServer server;
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final List<Integer> clientPorts = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/fixed", e -> answer(e, 200, false, false));
        server.createContext("/chunked", e -> answer(e, 200, true, false));
        server.createContext("/closing", e -> answer(e, 200, false, true));
        server.createContext("/failing", e -> answer(e, 403, false, false));
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(HttpExchange e, int status, boolean chunked, boolean close) throws IOException {
        byte[] body = e.getRequestBody().readAllBytes();
        seen.add(e.getRequestHeaders().getFirst("Content-Type") + " " + e.getRequestHeaders().getFirst("Authorization")
                + " " + new String(body, StandardCharsets.UTF_8));
        clientPorts.add(e.getRemoteAddress().getPort());
        byte[] out = ("{\"echo\":" + new String(body, StandardCharsets.UTF_8) + ",\"pad\":\"" + "x".repeat(20_000)
                + "\"}").getBytes(StandardCharsets.UTF_8);
        if (close) {
            e.getResponseHeaders().set("Connection", "close");
        }
        e.sendResponseHeaders(status, chunked ? 0 : out.length);
        try (var o = e.getResponseBody()) {
            o.write(out);
        }
    }

    private BenchHttpClient client(String path, String bearer) {
        return new BenchHttpClient("127.0.0.1", server.getAddress().getPort(), path, bearer);
    }

    @Test
    void postsJsonAndReadsAnAnswerWithContentLengthOverOneKeptAliveConnection() throws IOException {
        try (BenchHttpClient http = client("/fixed", "t0ken")) {
            byte[] first = http.post("{\"q\":1}".getBytes(StandardCharsets.UTF_8));
            byte[] second = http.post("{\"q\":2}".getBytes(StandardCharsets.UTF_8));
            assertThat(new String(first, StandardCharsets.UTF_8)).startsWith("{\"echo\":{\"q\":1},").endsWith("x\"}");
            assertThat(new String(second, StandardCharsets.UTF_8)).startsWith("{\"echo\":{\"q\":2},");
        }
        assertThat(seen).containsExactly("application/json Bearer t0ken {\"q\":1}",
                "application/json Bearer t0ken {\"q\":2}");
        assertThat(clientPorts).hasSize(2);
        assertThat(clientPorts.get(0)).isEqualTo(clientPorts.get(1));
    }

    @Test
    void readsAChunkedAnswerWhole() throws IOException {
        try (BenchHttpClient http = client("/chunked", null)) {
            String answer = new String(http.post("{}".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
            assertThat(answer).hasSize("{\"echo\":{},\"pad\":\"\"}".length() + 20_000).endsWith("x\"}");
            assertThat(new String(http.post("[1]".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                    .startsWith("{\"echo\":[1],");
        }
        assertThat(seen.get(0)).isEqualTo("application/json null {}");
        assertThat(clientPorts.get(0)).isEqualTo(clientPorts.get(1));
    }

    @Test
    void opensANewConnectionAfterTheServerSaidClose() throws IOException {
        try (BenchHttpClient http = client("/closing", "")) {
            http.post("{\"q\":1}".getBytes(StandardCharsets.UTF_8));
            http.post("{\"q\":2}".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(seen).containsExactly("application/json null {\"q\":1}", "application/json null {\"q\":2}");
        assertThat(clientPorts.get(0)).isNotEqualTo(clientPorts.get(1));
    }

    @Test
    void anotherStatusThan200IsAnErrorWithStatusAndBody() {
        try (BenchHttpClient http = client("/failing", null)) {
            assertThatThrownBy(() -> http.post("{\"q\":1}".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("HTTP 403: {\"echo\":{\"q\":1},");
        }
    }
}
