package io.poimen.memory.testsupport;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Keycloak as a real identity provider for tests, with the realm of {@code examples/keycloak/poimen-realm.json}
 * (clients {@value #UI_CLIENT} and {@value #AGENT_CLIENT}; users charlie, alice, bob, each with the password of
 * their name). Uses the server at env {@code POIMEN_TEST_KEYCLOAK_URL} or system property
 * {@code poimen.test.keycloak.url} (scripts/test.sh starts one per run while Maven builds; the first use waits until
 * it serves the realm); without either, starts one with {@code scripts/keycloak.sh} once per JVM (a few minutes the
 * first time: the download) and stops it at JVM exit.
 * Talks to it over its public endpoints and its admin REST API (master realm admin, admin/admin).
 */
public final class TestKeycloak {
    public static final String URL_ENV = "POIMEN_TEST_KEYCLOAK_URL";
    public static final String URL_PROPERTY = "poimen.test.keycloak.url";
    public static final String REALM = "poimen";
    public static final String UI_CLIENT = "poimen-memory";
    public static final String AGENT_CLIENT = "poimen-agent";
    public static final String AGENT_SECRET = "poimen-agent-dev-secret";
    /** A client only tests add: the UI client's mappers, and password logins, so a test gets a user's token. */
    static final String TEST_LOGIN_CLIENT = "poimen-test-login";

    private static final String SCRIPT = "scripts/keycloak.sh";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static String url;
    private static boolean testLoginClient;

    private TestKeycloak() {
    }

    /** Base URL of the server, e.g. {@code http://127.0.0.1:41234}. */
    public static synchronized String url() {
        if (url == null) {
            String configured = System.getenv(URL_ENV);
            if (configured == null || configured.isBlank()) {
                configured = System.getProperty(URL_PROPERTY);
            }
            url = configured == null || configured.isBlank() ? startServer() : awaitRealm(configured.trim());
        }
        return url;
    }

    /** Waits (bounded: a loaded machine takes minutes) until the server at {@code base} serves the realm. */
    private static String awaitRealm(String base) {
        URI discovery = URI.create(base + "/realms/" + REALM + "/.well-known/openid-configuration");
        await("Keycloak at " + base + " serving realm " + REALM + " (its log: target/keycloak-test/server.log)")
                .atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> HTTP.send(HttpRequest.newBuilder(discovery).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        return base;
    }

    /** The realm's issuer: the hub's {@code poimen.security.issuer-uri}. */
    public static String issuer() {
        return url() + "/realms/" + REALM;
    }

    /** An access token of the agents' confidential client (client credentials): its service account's claims. */
    public static String agentToken() {
        return token(Map.of("grant_type", "client_credentials", "client_id", AGENT_CLIENT,
                "client_secret", AGENT_SECRET)).path("access_token").asText();
    }

    /** An access token for a user of the realm, with the claims the UI client's mappers give (password grant). */
    public static String userToken(String username) {
        ensureTestLoginClient();
        return token(Map.of("grant_type", "password", "client_id", TEST_LOGIN_CLIENT, "username", username,
                "password", username, "scope", "openid")).path("access_token").asText();
    }

    /** Lets the web UI of the hub at {@code origin} log in: its callback page becomes a redirect URI (and origin). */
    public static synchronized void allowHub(String origin) {
        JsonNode client = client(UI_CLIENT);
        ArrayNode redirects = (ArrayNode) client.path("redirectUris");
        String callback = origin + "/login-callback.html";
        for (JsonNode r : redirects) {
            if (r.asText().equals(callback)) {
                return;
            }
        }
        redirects.add(callback);
        admin("PUT", "/clients/" + client.path("id").asText(), client);
    }

    /** The user's sessions at Keycloak (empty once the user logged out). */
    public static JsonNode sessions(String username) {
        String id = admin("GET", "/users?exact=true&username=" + username, null).path(0).path("id").asText();
        return admin("GET", "/users/" + id + "/sessions", null);
    }

    /**
     * A call to the admin REST API of the realm ({@code /admin/realms/poimen} + {@code path}): the JSON answer
     * ({@code {"location": …}} for a 201 without body), or an exception naming the status.
     */
    public static JsonNode admin(String method, String path, Object body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + "/admin/realms/" + REALM + path))
                .header("Authorization", "Bearer " + adminToken());
        try {
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = send(request, method + " " + path);
        if (!response.body().isBlank()) {
            return read(response.body());
        }
        ObjectNode answer = JSON.createObjectNode();
        response.headers().firstValue("Location").ifPresent(l -> answer.put("location", l));
        return answer;
    }

    /** A form POST to a token endpoint; the JSON answer, or an exception with Keycloak's error. */
    static JsonNode form(String endpoint, Map<String, String> form) {
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return read(send(HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)), endpoint).body());
    }

    /** Sends the request; a status of 300 or more is an exception naming {@code what}, the status and the body. */
    private static HttpResponse<String> send(HttpRequest.Builder request, String what) {
        try {
            HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException(what + ": HTTP " + response.statusCode() + " " + response.body());
            }
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode token(Map<String, String> form) {
        return form(issuer() + "/protocol/openid-connect/token", form);
    }

    private static String adminToken() {
        return form(url() + "/realms/master/protocol/openid-connect/token", Map.of("grant_type", "password",
                "client_id", "admin-cli", "username", "admin", "password", "admin")).path("access_token").asText();
    }

    private static JsonNode client(String clientId) {
        return admin("GET", "/clients?clientId=" + clientId, null).path(0);
    }

    /** A copy of the UI client (same mappers, so the same claims) that also takes passwords, for tests only. */
    private static synchronized void ensureTestLoginClient() {
        if (testLoginClient) {
            return;
        }
        if (client(TEST_LOGIN_CLIENT).isMissingNode()) {
            ObjectNode copy = (ObjectNode) client(UI_CLIENT);
            copy.remove(List.of("id", "redirectUris", "webOrigins"));
            ((ArrayNode) copy.path("protocolMappers")).forEach(m -> ((ObjectNode) m).remove("id"));
            copy.put("clientId", TEST_LOGIN_CLIENT).put("name", "tests only: password logins")
                    .put("standardFlowEnabled", false).put("directAccessGrantsEnabled", true);
            admin("POST", "/clients", copy);
        }
        testLoginClient = true;
    }

    private static String startServer() {
        Path project = TestScripts.projectDir(SCRIPT,
                "set " + URL_ENV + " to a running Keycloak with the poimen realm");
        Path dir = project.resolve("target/keycloak-" + ProcessHandle.current().pid());
        List<String> output = TestScripts.run(project, SCRIPT, Duration.ofMinutes(20), "start", dir.toString());
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> TestScripts.run(project, SCRIPT, Duration.ofMinutes(2), "stop", dir.toString()),
                "test-keycloak-stop"));
        return output.stream().filter(line -> line.startsWith("http://")).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException(SCRIPT + " start printed no URL: " + output)).trim();
    }
}
