package io.poimen.memory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code query --project P "text"}: asks a running hub, with the bearer token from MEM_API_TOKEN, and prints the
 * context it selected, chunk by chunk (path, heading path, score, then the text); {@code --json} prints the whole
 * answer. The summary line (strategy, degraded branches, tokens) goes to stderr, so stdout is only the context.
 */
@Command(name = "query", description = "Query a running hub (POST /memory/query) and print the context it selects.")
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

    @Option(names = "--json", description = "print the whole JSON answer (results with score breakdowns)")
    boolean raw;

    @Spec
    CommandSpec spec;

    @Option(names = "--token", defaultValue = "${env:MEM_API_TOKEN}", description = "bearer token (MEM_API_TOKEN)")
    String token;

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
        if (token != null && !token.isBlank()) {
            request.header("Authorization", "Bearer " + token.trim());
        }
        HttpResponse<String> response;
        try {
            response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            err().println("error: no hub answering at " + url + " (start it with `serve`, or set --url)");
            return 3;
        }
        JsonNode answer = json.readTree(response.body().isBlank() ? "{}" : response.body());
        if (response.statusCode() != 200) {
            err().printf("error %d: %s: %s%n", response.statusCode(), answer.path("error").asText("http_error"),
                    answer.path("message").asText(response.body()));
            return 1;
        }
        if (raw) {
            out().println(json.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
            return 0;
        }
        printContext(answer);
        err().printf("%d chunks, %d of %d tokens; strategy %s%s%n", answer.path("context").path("chunks").size(),
                answer.path("context").path("tokens_used").asInt(), answer.path("context").path("token_budget").asInt(),
                answer.path("strategy").asText(), answer.path("degraded").isEmpty() ? ""
                        : ", degraded " + answer.path("degraded"));
        return 0;
    }

    /** The selected chunks in the order the hub sent them: a header line each, then the chunk's text. */
    void printContext(JsonNode answer) {
        Map<String, JsonNode> results = new LinkedHashMap<>();
        answer.path("results").forEach(r -> results.put(r.path("doc_id").asText(), r));
        for (JsonNode id : answer.path("context").path("chunks")) {
            JsonNode r = results.get(id.asText());
            if (r == null) {
                continue;
            }
            List<String> where = new ArrayList<>(List.of(r.path("path").asText()));
            r.path("breadcrumb").forEach(b -> where.add(b.asText()));
            out().printf("── %s  (%.3f)%n%s%n%n", String.join(" › ", where), r.path("score").asDouble(),
                    r.path("text").asText().strip());
        }
        if (answer.path("context").path("chunks").isEmpty()) {
            out().println("(nothing found)");
        }
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
