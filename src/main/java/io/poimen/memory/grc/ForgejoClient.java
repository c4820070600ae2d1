package io.poimen.memory.grc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.poimen.memory.config.ForgejoProperties;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The few Forgejo (Gitea-compatible) API calls of the edit flow, with {@code Authorization: token <token>}:
 * list, create and read pull requests, and read their reviews.
 */
public class ForgejoClient {
    static final int PAGE_SIZE = 50;
    static final int MAX_PAGES = 20;

    private final ForgejoProperties settings;
    private final ObjectMapper json;
    private final HttpClient http;

    public ForgejoClient(ForgejoProperties settings, ObjectMapper json) {
        this.settings = settings;
        this.json = json;
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).build();
    }

    /** The open pull request whose head is {@code branch}, if any (pages through the open pull requests). */
    public Optional<PullRequest> findOpen(String branch) {
        for (int page = 1; page <= MAX_PAGES; page++) {
            JsonNode list = send(get(repoPath() + "/pulls?state=open&page=" + page + "&limit=" + PAGE_SIZE));
            for (JsonNode pr : list) {
                if (branch.equals(pr.path("head").path("ref").asText())) {
                    return Optional.of(pullRequest(pr));
                }
            }
            if (list.size() < PAGE_SIZE) {
                break;
            }
        }
        return Optional.empty();
    }

    /** {@code POST /repos/{owner}/{repo}/pulls}. */
    public PullRequest create(String title, String head, String base, String body) {
        ObjectNode request = json.createObjectNode().put("title", title).put("head", head).put("base", base)
                .put("body", body);
        try {
            return pullRequest(send(builder(repoPath() + "/pulls")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(request))).build()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code GET /repos/{owner}/{repo}/pulls/{index}}. */
    public PullRequest get(int number) {
        return pullRequest(send(get(repoPath() + "/pulls/" + number)));
    }

    /** {@code GET /repos/{owner}/{repo}/pulls/{index}/reviews}, oldest first. */
    public JsonNode reviews(int number) {
        return send(get(repoPath() + "/pulls/" + number + "/reviews"));
    }

    private PullRequest pullRequest(JsonNode pr) {
        return new PullRequest(pr.path("number").asInt(), pr.path("html_url").asText(null),
                pr.path("state").asText("open"), pr.path("merged").asBoolean(false),
                pr.path("head").path("ref").asText(null));
    }

    private JsonNode send(HttpRequest request) {
        if (!settings.configured()) {
            throw new ForgejoUnavailableException("Forgejo is not configured (poimen.forgejo.url, owner, repo)", null);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ForgejoUnavailableException("Forgejo at " + settings.url() + " is unreachable: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ForgejoUnavailableException("interrupted while calling Forgejo", e);
        }
        int status = response.statusCode();
        String what = request.method() + " " + request.uri().getPath();
        if (status >= 500 || status == 429) {
            throw new ForgejoUnavailableException(what + " answered " + status + ": " + brief(response.body()), null);
        }
        if (status >= 400) {
            throw new ForgejoRequestException(status, what + " answered " + status + ": " + brief(response.body()));
        }
        try {
            return json.readTree(response.body().isEmpty() ? "{}" : response.body());
        } catch (JsonProcessingException e) {
            throw new ForgejoUnavailableException(what + " answered malformed JSON", e);
        }
    }

    private HttpRequest get(String path) {
        return builder(path).GET().build();
    }

    private HttpRequest.Builder builder(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(settings.url() + "/api/v1" + path))
                .timeout(settings.timeout()).header("Accept", "application/json");
        if (settings.token() != null && !settings.token().isBlank()) {
            b.header("Authorization", "token " + settings.token());
        }
        return b;
    }

    private String repoPath() {
        return "/repos/" + encode(settings.owner()) + "/" + encode(settings.repo());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String brief(String body) {
        String b = body == null ? "" : body.strip();
        return b.length() > 300 ? b.substring(0, 300) + "…" : b;
    }
}
