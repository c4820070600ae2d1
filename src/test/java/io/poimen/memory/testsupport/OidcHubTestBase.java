package io.poimen.memory.testsupport;

import com.nimbusds.jose.JOSEObjectType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The hub in oidc mode on a random port, against a real issuer (mock-oauth2-server), serving a copy of the example
 * vault with one planted note only the ml-team may read ({@link #PLANTED_PATH}, text {@link #PLANTED_TEXT} under
 * the heading {@link #PLANTED_HEADING}, alias {@link #PLANTED_ALIAS}) and an image beside it
 * ({@link #PLANTED_ATTACHMENT}, the example diagram with {@link #PLANTED_TEXT} after its end). Subclasses share one context and one issuer.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-oidc-hub/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:oidc-hub-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false",
        "poimen.agents.heartbeat=PT2S"})
public abstract class OidcHubTestBase {
    public static final String ISSUER = "poimen-test";
    public static final String PLANTED_PATH = "projects/ml-training/runbooks/planted-secret.md";
    public static final String PLANTED_TEXT = "zorblaxplanted7781";
    public static final String PLANTED_HEADING = "Quillfeather Planted Heading";
    /** The planted note's front-matter alias: a name only the ml-team may read it by. */
    public static final String PLANTED_ALIAS = "Quillfeather runbook";
    public static final String PLANTED_ATTACHMENT = "projects/ml-training/runbooks/planted-diagram.png";
    protected static final Path VAULT = Path.of("target/it-oidc-hub/vault-" + UUID.randomUUID());
    protected static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    protected static final HttpClient HTTP = HttpClient.newHttpClient();
    private static boolean started;

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void issuerAndVault(DynamicPropertyRegistry registry) throws IOException {
        synchronized (OAUTH) {
            // one issuer for every subclass in this JVM
            if (!started) {
                OAUTH.start();
                started = true;
            }
        }
        if (!Files.exists(VAULT)) {
            ExampleVault.copyTo(VAULT);
            Files.writeString(VAULT.resolve(PLANTED_PATH), "---\naliases: [" + PLANTED_ALIAS + "]\n---\n"
                    + "# Planted secret\n\n## " + PLANTED_HEADING
                    + "\n\nThe GPU node runbook secret is " + PLANTED_TEXT + " for gpu node drains.\n");
            Files.write(VAULT.resolve(PLANTED_ATTACHMENT), plantedAttachment());
        }
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        // a subclass that serves a vault of its own registers poimen.test.vault-path (its dynamic properties are
        // registered before these, so it cannot set poimen.vault.path itself)
        registry.add("poimen.vault.path", () -> "${poimen.test.vault-path:" + VAULT + "}");
    }

    /** The bytes of {@link #PLANTED_ATTACHMENT}: a valid PNG followed by {@link #PLANTED_TEXT}. */
    public static byte[] plantedAttachment() throws IOException {
        byte[] png = Files.readAllBytes(Path.of("examples/vault/projects/poimen/attachments/cluster-diagram.png"));
        byte[] marker = PLANTED_TEXT.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = java.util.Arrays.copyOf(png, png.length + marker.length);
        System.arraycopy(marker, 0, out, png.length, marker.length);
        return out;
    }

    public static String token(String sub, List<String> groups, List<String> roles) {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, sub,
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", groups, "roles", roles),
                3600)).serialize();
    }

    /** ml-team: may read projects/ml-training and the planted note. */
    public static String bob() {
        return token("bob", List.of("ml-team"), List.of("editor"));
    }

    /** platform-team and devops-team: poimen, not ml-training. */
    public static String charlie() {
        return token("charlie", List.of("platform-team", "devops-team"), List.of("viewer"));
    }

    /** devops-team only. */
    public static String dave() {
        return token("dave", List.of("devops-team"), List.of("viewer"));
    }

    /** Signed in, no groups. */
    public static String nobody() {
        return token("nobody", List.of(), List.of("viewer"));
    }

    protected URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    protected HttpResponse<String> get(String token, String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(pathAndQuery)).header("Authorization", "Bearer " + token)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    protected HttpResponse<String> post(String token, String path, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
