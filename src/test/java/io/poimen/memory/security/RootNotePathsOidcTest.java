package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.ExampleVault;
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
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * Notes in the vault root that a caller may not read (the shipped {@code outside_default: deny} and no vault-root
 * {@code _access.yaml}, so nobody reads {@code README.md} or {@code roadmap-2027.md}) are hidden in free text like notes under {@code projects/} and
 * {@code shared/}: commit messages of {@code recent_changes} and the text of agent events, in oidc mode; and the
 * MCP endpoint's 405 for other methods, with a bearer, after the 401 without one.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-root-notes/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:root-notes-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false"})
class RootNotePathsOidcTest {
    static final String ISSUER = "poimen-root-notes";
    static final Path ROOT = Path.of("target/it-root-notes/" + UUID.randomUUID()).toAbsolutePath();
    static final Path VAULT = ROOT.resolve("vault");
    static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final String POINTER = "projects/poimen/root-pointer.md";

    @LocalServerPort int port;

    @DynamicPropertySource
    static void issuerVaultAndPolicies(DynamicPropertyRegistry registry) throws IOException {
        OAUTH.start();
        ExampleVault.copyTo(VAULT);
        Path policies = ROOT.resolve("policies");
        FileSystemUtils.copyRecursively(Path.of("policies"), policies);
        assertThat(Files.readString(policies.resolve("default.yaml"))).contains("\noutside_default: deny\n");
        PersonIdent author = new PersonIdent("Root", "root@example.org");
        try (Git git = Git.init().setInitialBranch("main").setDirectory(VAULT.toFile()).call()) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("Example vault").setAuthor(author).setCommitter(author).call();
            Files.writeString(VAULT.resolve("README.md"), "# Team vault\n\nzebracorn merger notes.\n");
            Files.writeString(VAULT.resolve("roadmap-2027.md"), "# Roadmap 2027\n\nzebracorn acquisition.\n");
            Files.writeString(VAULT.resolve(POINTER), "# Root pointer\n\nSee [[README]] and [[roadmap-2027]].\n");
            git.add().addFilepattern(".").call();
            git.commit().setMessage("Add README.md, [[roadmap-2027]] and " + POINTER).setAuthor(author)
                    .setCommitter(author).call();
        } catch (org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IOException(e);
        }
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        registry.add("poimen.vault.path", VAULT::toString);
        registry.add("poimen.policies.dir", policies::toString);
    }

    @AfterAll
    static void stop() {
        OAUTH.shutdown();
    }

    /** Reads project poimen (platform-team), not the root notes (nobody does). */
    static String charlie() {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, "charlie",
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"),
                Map.of("groups", List.of("platform-team"), "roles", List.of("editor")), 3600)).serialize();
    }

    HttpResponse<String> send(String token, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aDeniedRootNoteIsHiddenInCommitMessagesAndAgentEventText() throws Exception {
        assertThat(send(charlie(), "GET", "/memory/vault/file?path=README.md", null).statusCode())
                .as("the caller may not read the root note").isEqualTo(404);
        try (McpSyncClient c = McpClients.connect("http://127.0.0.1:" + port, charlie())) {
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("recent_changes",
                    Map.of("since", "2000-01-01T00:00:00Z", "limit", 500)));
            assertThat(r.isError()).as(McpClients.text(r)).isFalse();
            JsonNode changes = JSON.readTree(McpClients.text(r)).path("changes");
            assertThat(changes.findValuesAsText("path")).contains(POINTER).doesNotContain("README.md",
                    "roadmap-2027.md");
            String message = null;
            for (JsonNode change : changes) {
                if (change.path("path").asText().equals(POINTER)) {
                    message = change.path("message").asText();
                }
            }
            assertThat(message).isEqualTo("Add [path hidden], [[[path hidden]]] and " + POINTER);
        }

        String session = UUID.randomUUID().toString();
        HttpResponse<String> posted = send(charlie(), "POST", "/memory/agents/events", """
                {"agent_id":"reader","session_id":"%s","type":"agent_decision","payload":{"project":"poimen",
                 "note":"read README.md first, then roadmap-2027 and %s"}}""".formatted(session, POINTER));
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(201);
        HttpResponse<String> logs = send(charlie(), "GET", "/memory/agents/logs?session_id=" + session, null);
        assertThat(logs.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(logs.body()).path("events").get(0).path("payload").path("note").asText())
                .isEqualTo("read [path hidden] first, then [path hidden] and " + POINTER);
    }

    @Test
    void otherMethodsOnTheMcpEndpointAreA405JsonAnswerWithAllowAfterTheBearerCheck() throws Exception {
        HttpResponse<String> anonymous = send(null, "PUT", "/mcp", "{}");
        assertThat(anonymous.statusCode()).isEqualTo(401);
        for (String method : List.of("PUT", "PATCH", "OPTIONS")) {
            HttpResponse<String> r = send(charlie(), method, "/mcp", "{}");
            assertThat(r.statusCode()).as(method).isEqualTo(405);
            assertThat(r.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
            assertThat(JSON.readTree(r.body()).path("error").asText()).isEqualTo("method_not_allowed");
        }
    }
}
