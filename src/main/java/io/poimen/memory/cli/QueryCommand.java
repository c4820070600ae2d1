package io.poimen.memory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code query --project P "text"}: asks a running hub, with the bearer token from MEM_API_TOKEN. */
@Command(name = "query", description = "Query a running hub (POST /memory/query).")
public class QueryCommand implements Callable<Integer> {
    @Option(names = "--project", required = true)
    String project;

    @Parameters(index = "0", description = "query text")
    String text;

    @Option(names = "--url", defaultValue = "${MEM_API_URL:-http://127.0.0.1:8080}", description = "hub URL (MEM_API_URL)")
    String url;

    @Option(names = "--top-k")
    Integer topK;

    @Option(names = "--method", description = "hybrid, lexical, semantic or tfidf")
    String method;

    @Option(names = "--json", description = "print the raw JSON answer")
    boolean raw;

    @Override
    public Integer call() throws IOException, InterruptedException {
        ObjectMapper json = new ObjectMapper();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("project", project);
        body.put("query", text);
        if (topK != null) {
            body.put("top_k", topK);
        }
        if (method != null) {
            body.put("search_method", method);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + "/memory/query"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
        String token = System.getenv("MEM_API_TOKEN");
        if (token != null && !token.isBlank()) {
            request.header("Authorization", "Bearer " + token.trim());
        }
        HttpResponse<String> response;
        try {
            response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            System.err.println("error: no hub answering at " + url + " (start it with `serve`, or set --url)");
            return 3;
        }
        JsonNode answer = json.readTree(response.body().isBlank() ? "{}" : response.body());
        if (response.statusCode() != 200) {
            System.err.printf("error %d: %s: %s%n", response.statusCode(), answer.path("error").asText("http_error"),
                    answer.path("message").asText(response.body()));
            return 1;
        }
        if (raw) {
            System.out.println(json.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
            return 0;
        }
        System.out.printf("strategy %s, degraded %s, %d tokens%n", answer.path("strategy").asText(),
                answer.path("degraded"), answer.path("context").path("tokens_used").asInt());
        int i = 0;
        for (JsonNode r : answer.path("results")) {
            System.out.printf("%2d. %.3f  %s  (%s)%n", ++i, r.path("score").asDouble(), r.path("doc_id").asText(),
                    r.path("breakdown").path("reason").asText());
        }
        return 0;
    }
}
