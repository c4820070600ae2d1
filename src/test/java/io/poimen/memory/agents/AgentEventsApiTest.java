package io.poimen.memory.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.web.HubWebTestBase;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Agent events over HTTP: validation, the stored log, the live stream, and memory_retrieved from a query. */
class AgentEventsApiTest extends HubWebTestBase {
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();
    @Autowired AgentStream stream;

    HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode logs(String query) throws Exception {
        return json.readTree(http.send(HttpRequest.newBuilder(URI.create(base() + "/memory/agents/logs?" + query))
                .build(), HttpResponse.BodyHandlers.ofString()).body()).get("events");
    }

    @Test
    void storesAValidEventAndListsItBySession() throws Exception {
        String session = UUID.randomUUID().toString();
        HttpResponse<String> r = post("/memory/agents/events", """
                {"agent_id":"fixer","session_id":"%s","type":"tool_invoked",
                 "payload":{"tool_name":"kubectl","args":["get","pods"]}}""".formatted(session));
        assertThat(r.statusCode()).isEqualTo(201);
        JsonNode stored = json.readTree(r.body());
        assertThat(stored.get("id").asLong()).isPositive();
        post("/memory/agents/events", """
                {"agent_id":"fixer","session_id":"%s","type":"agent_complete"}""".formatted(session));
        JsonNode events = logs("session_id=" + session);
        assertThat(events).hasSize(2);
        assertThat(events.get(0).get("type").asText()).isEqualTo("tool_invoked");
        assertThat(events.get(0).get("payload").get("args").get(1).asText()).isEqualTo("pods");
        assertThat(events.get(1).get("type").asText()).isEqualTo("agent_complete");
        assertThat(events.get(1).get("payload").size()).isZero();
        assertThat(logs("session_id=" + session + "&limit=1")).hasSize(1)
                .first().satisfies(e -> assertThat(e.get("type").asText()).isEqualTo("agent_complete"));
    }

    @Test
    void rejectsBadEventsWithClearErrorsAndStoresNothing() throws Exception {
        String session = UUID.randomUUID().toString();
        record Case(String body, int status) {
        }
        for (Case c : List.of(
                new Case("{\"agent_id\":\"a\",\"session_id\":\"" + session + "\",\"type\":\"agent_dreamt\"}", 422),
                new Case("{\"session_id\":\"" + session + "\",\"type\":\"agent_started\"}", 422),
                new Case("{\"agent_id\":\"a\",\"session_id\":\"" + session + "\",\"type\":\"agent_started\",\"payload\":[1]}", 400),
                new Case("{\"agent_id\":\"a\",\"session_id\":\"" + session + "\",\"type\":1}", 400),
                new Case("{\"agent_id\":7,\"session_id\":\"" + session + "\",\"type\":\"agent_started\"}", 400),
                new Case("{\"agent_id\":\"a/b\",\"session_id\":\"" + session + "\",\"type\":\"agent_started\"}", 400),
                new Case("{\"agent_id\":\"a\",\"session_id\":\"" + session + "\",\"type\":", 400),
                new Case("[]", 400))) {
            HttpResponse<String> r = post("/memory/agents/events", c.body());
            assertThat(r.statusCode()).as(c.body()).isEqualTo(c.status());
            assertThat(json.readTree(r.body()).get("message").asText()).as(c.body()).isNotBlank();
        }
        assertThat(logs("session_id=" + session)).isEmpty();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base() + "/memory/agents/logs?limit=0")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(422);
    }

    @Test
    void streamsEventsLiveToSubscribersOfThatAgent() throws Exception {
        String agent = "streamer-" + UUID.randomUUID();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        HttpResponse<InputStream> sse = http.send(HttpRequest.newBuilder(
                        URI.create(base() + "/memory/agents/stream?agent_id=" + agent))
                .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(sse.statusCode()).isEqualTo(200);
        assertThat(sse.headers().firstValue("Content-Type")).hasValueSatisfying(
                t -> assertThat(t).startsWith("text/event-stream"));
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(sse.body(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (Exception ignored) {
                // the stream closes when the test ends
            }
        });
        reader.setDaemon(true);
        reader.start();
        assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(":connected");
        post("/memory/agents/events", "{\"agent_id\":\"someone-else\",\"type\":\"agent_started\"}");
        post("/memory/agents/events", """
                {"agent_id":"%s","type":"agent_decision","payload":{"reasoning":"restart the pod"}}""".formatted(agent));
        String data = null;
        boolean heartbeat = false;
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while ((data == null || !heartbeat) && System.nanoTime() < deadline) {
            String line = lines.poll(1, TimeUnit.SECONDS);
            if (line != null && line.startsWith("data:")) {
                assertThat(data).as("only the subscribed agent's events arrive").isNull();
                data = line.substring("data:".length());
            }
            heartbeat |= ":heartbeat".equals(line);
        }
        assertThat(data).isNotNull();
        JsonNode event = json.readTree(data);
        assertThat(event.get("agent_id").asText()).isEqualTo(agent);
        assertThat(event.get("payload").get("reasoning").asText()).isEqualTo("restart the pod");
        assertThat(heartbeat).as("a heartbeat comment arrives at the configured interval").isTrue();
        sse.body().close();
    }

    @Test
    void aQueryNamingAnAgentRecordsMemoryRetrieved() throws Exception {
        String session = UUID.randomUUID().toString();
        HttpResponse<String> r = post("/memory/query", """
                {"project":"poimen","query":"pod keeps restarting with CrashLoopBackOff","top_k":3,
                 "agent_id":"query-agent","session_id":"%s"}""".formatted(session));
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode response = json.readTree(r.body());
        JsonNode events = logs("session_id=" + session);
        assertThat(events).hasSize(1);
        JsonNode payload = events.get(0).get("payload");
        assertThat(events.get(0).get("type").asText()).isEqualTo("memory_retrieved");
        assertThat(events.get(0).get("agent_id").asText()).isEqualTo("query-agent");
        assertThat(payload.get("query").asText()).isEqualTo("pod keeps restarting with CrashLoopBackOff");
        assertThat(payload.get("chunks")).hasSize(response.get("results").size()).isNotEmpty();
        assertThat(payload.get("chunks").get(0).get("doc_id").asText())
                .isEqualTo(response.get("results").get(0).get("doc_id").asText());
        assertThat(payload.get("scores").get(0).asDouble())
                .isEqualTo(response.get("results").get(0).get("score").asDouble());
        long before = retrievedCount();
        assertThat(post("/memory/query", "{\"project\":\"poimen\",\"query\":\"kubectl logs previous\"}").statusCode())
                .isEqualTo(200);
        assertThat(retrievedCount()).as("a query without agent or session records nothing").isEqualTo(before);
    }

    long retrievedCount() throws Exception {
        long n = 0;
        for (JsonNode e : logs("limit=1000")) {
            n += "memory_retrieved".equals(e.get("type").asText()) ? 1 : 0;
        }
        return n;
    }
}
