package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.testsupport.AnswerFigures;
import io.poimen.memory.testsupport.TestOpenSearch;
import io.poimen.memory.testsupport.TestPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * The production project filter ({@link SearchScope.ProjectFilter}, taken when a scope has at least
 * {@link SearchScope#PROJECT_FILTER_MIN_PATHS} paths) over HTTP, in oidc mode (mock-oauth2-server), on the prod
 * stores (PostgreSQL + pgvector, an OpenSearch node): a generated project of {@value #ALLOWED} readable notes and a
 * private folder of {@value #DENIED} notes with planted markers, some linked from readable notes, one linking to a
 * shared note reachable only through it. A caller who may read the project but not the folder gets no denied path,
 * text, heading or marker in any result, context or score breakdown, with hybrid, lexical and semantic search; and
 * the same answers where docs/security.md says so when most of the denied notes are gone.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.vector.backend=pgvector", "poimen.lexical.backend=opensearch",
        "poimen.opensearch.index=project-filter-scale",
        "poimen.data.dir=target/it-scale/data-${random.uuid}",
        "poimen.vault.ingest-on-startup=true",
        "camel.main.routes-reload-enabled=false"})
class ProjectFilterScaleProdOidcTest {
    static final int ALLOWED = SearchScope.PROJECT_FILTER_MIN_PATHS + 100;
    static final int DENIED = 40;
    /** Denied notes left in the second vault: still some, so the filter still excludes notes. */
    static final int DENIED_KEPT = 8;
    static final String ISSUER = "poimen-scale";
    static final Path VAULT = Path.of("target/it-scale/vault");
    static final String SECRET = "projects/scale/secret/";
    static final String ONLY_VIA_SECRET = "shared/concepts/scale-only-via-secret.md";
    static final String MARKER = "quorvexmark";
    static final String SECRET_HEADING = "Blindvault Heading";
    static final MockOAuth2Server OAUTH = new MockOAuth2Server();
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final List<String> WORDS = List.of("kubectl", "pod", "crash", "rollout", "deploy", "canary", "helm",
            "node", "drain", "cluster", "ingress", "certificate", "backup", "restore", "latency", "cache", "queue",
            "retry", "timeout", "gateway", "schema", "migration", "index", "vector", "shard", "replica", "lease",
            "token", "secret", "policy", "audit", "metric", "alert", "dashboard", "runbook", "incident", "postmortem",
            "budget", "quota", "scaling", "memory", "thread", "heap", "garbage", "network", "dns", "proxy", "tls");
    static final List<String> QUERIES = List.of("kubectl pod crash recovery during a canary rollout",
            "helm rollout canary", "node drain runbook incident", "latency budget of the gateway cache");
    static final List<String> METHODS = List.of("hybrid", "lexical", "semantic");

    @LocalServerPort int port;
    @Autowired GraphService graph;
    @Autowired SearchScopes scopes;

    @DynamicPropertySource
    static void storesIssuerAndVault(DynamicPropertyRegistry registry) throws IOException {
        OAUTH.start();
        long t0 = System.nanoTime();
        writeVault();
        System.out.printf("ProjectFilterScaleProdOidcTest: vault of %d notes written in %d ms%n", ALLOWED + DENIED + 3,
                (System.nanoTime() - t0) / 1_000_000);
        String url = TestPostgres.freshDatabaseUrl("project_filter_scale");
        registry.add("spring.datasource.url", () -> url);
        registry.add("poimen.opensearch.url", TestOpenSearch::url);
        registry.add("poimen.security.issuer-uri", () -> OAUTH.issuerUrl(ISSUER).toString());
        registry.add("poimen.vault.path", () -> VAULT.toString());
    }

    @AfterAll
    static void stopIssuer() {
        OAUTH.shutdown();
    }

    static void writeVault() throws IOException {
        FileSystemUtils.deleteRecursively(VAULT);
        Path project = Files.createDirectories(VAULT.resolve("projects/scale"));
        Files.writeString(project.resolve("_access.yaml"), "access_level: group\nallowed_groups: [platform-team]\n");
        Path secret = Files.createDirectories(VAULT.resolve(SECRET));
        Files.writeString(secret.resolve("_access.yaml"), "access_level: private\nowner_group: ml-team\n");
        Files.createDirectories(VAULT.resolve("shared/concepts"));
        Files.writeString(VAULT.resolve("shared/concepts/rollouts.md"),
                "# Rollouts\n\nA canary rollout moves a small share of pods first; kubectl rollout undo reverts.\n");
        Files.writeString(VAULT.resolve(ONLY_VIA_SECRET),
                "# Only via secret\n\nA shared concept on pod crash recovery reached only through the secret.\n");
        Random random = new Random(42);
        for (int i = 0; i < ALLOWED; i++) {
            String folder = "projects/scale/area-" + (i % 20) + "/";
            Files.createDirectories(VAULT.resolve(folder));
            // by name: a readable note's own text naming the folder would be the note's doing, not a leak
            String link = i % 50 == 0 ? "\n\nSee [[s-" + (i / 50 % DENIED) + "]] and "
                    + "[[shared/concepts/rollouts]].\n" : "\n";
            Files.writeString(VAULT.resolve(folder + "n-" + i + ".md"), "# Note " + i + "\n\n" + words(random, 14)
                    + "." + link);
        }
        for (int i = 0; i < DENIED; i++) {
            String link = i == 0 ? "\n\nSee [[" + ONLY_VIA_SECRET.replace(".md", "") + "]].\n" : "\n";
            Files.writeString(VAULT.resolve(SECRET + "s-" + i + ".md"), "# Secret " + i + "\n\n## " + SECRET_HEADING
                    + " " + i + "\n\nkubectl pod crash recovery during a canary rollout, helm node drain runbook "
                    + "incident, latency budget of the gateway cache: " + MARKER + i + "." + link);
        }
    }

    static String words(Random random, int n) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(i == 0 ? "" : " ").append(WORDS.get(random.nextInt(WORDS.size())));
        }
        return out.toString();
    }

    static String token(String sub, List<String> groups, List<String> roles) {
        return OAUTH.issueToken(ISSUER, "poimen-cli", new DefaultOAuth2TokenCallback(ISSUER, sub,
                JOSEObjectType.JWT.getType(), List.of("poimen-memory"), Map.of("groups", groups, "roles", roles),
                3600)).serialize();
    }

    /** Reads project scale, not its secret folder. */
    static String charlie() {
        return token("charlie", List.of("platform-team"), List.of("viewer"));
    }

    /** Reads both; may reindex. */
    static String dana() {
        return token("dana", List.of("platform-team", "ml-team"), List.of("admin"));
    }

    HttpResponse<String> query(String bearer, String text, String method) throws Exception {
        String body = JSON.writeValueAsString(Map.of("project", "scale", "query", text, "search_method", method,
                "top_k", 20));
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Authorization", "Bearer " + bearer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Every answer of charlie, without timings, after checking it holds nothing of the denied folder. */
    Map<String, JsonNode> charliesAnswers() throws Exception {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (String method : METHODS) {
            for (String text : QUERIES) {
                HttpResponse<String> r = query(charlie(), text, method);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                JsonNode body = AnswerFigures.comparable(r.body());
                assertThat(body.path("results").size()).as(method + " " + text).isPositive();
                assertThat(body.path("degraded").size()).as(r.body()).isZero();
                assertThat(body.toString()).as(method + " " + text)
                        .doesNotContain(SECRET, MARKER, SECRET_HEADING, ONLY_VIA_SECRET, "Secret ");
                out.put(method + ": " + text, body);
            }
        }
        return out;
    }

    @Test
    void aRestrictedCallerOnTheProjectFilterSeesNothingDeniedAndTheSameAnswersWithFewerDeniedNotes() throws Exception {
        // the filter path is taken: the restricted scope is large and excludes the denied folder
        SearchScope scope = scopes.scope("scale", path -> !path.startsWith(SECRET), List.of());
        assertThat(scope.paths()).hasSizeGreaterThanOrEqualTo(SearchScope.PROJECT_FILTER_MIN_PATHS);
        assertThat(scope.byProject()).isNotNull();
        assertThat(scope.byProject().excluded()).hasSize(DENIED).allMatch(p -> p.startsWith(SECRET));
        assertThat(graph.current().projectNotes("scale")).hasSize(ALLOWED + DENIED);

        // the reader of the secret folder does get it: the markers are findable
        HttpResponse<String> owner = query(dana(), QUERIES.get(0), "hybrid");
        assertThat(owner.body()).contains(SECRET, MARKER);

        Map<String, JsonNode> with = charliesAnswers();
        for (int i = DENIED_KEPT; i < DENIED; i++) {
            Files.delete(VAULT.resolve(SECRET + "s-" + i + ".md"));
        }
        reindex();
        assertThat(graph.current().projectNotes("scale")).hasSize(ALLOWED + DENIED_KEPT);
        assertThat(scopes.scope("scale", path -> !path.startsWith(SECRET), List.of()).byProject().excluded())
                .hasSize(DENIED_KEPT);
        Map<String, JsonNode> without = charliesAnswers();
        for (String key : with.keySet()) {
            // the same where docs/security.md says so: the semantic answer entirely (the deleted rows' vectors stay
            // in pgvector's HNSW graph until a vacuum, so its walk is the one before), with BM25 all but its ranking
            AnswerFigures.assertSameWhereGuaranteed(key, key.substring(0, key.indexOf(':')), with.get(key),
                    without.get(key));
        }

        // the scope is cached per graph version and denials; a policy edit changes the denials on the next query
        long built = scopes.stats().misses();
        assertThat(query(charlie(), QUERIES.get(0), "hybrid").body()).doesNotContain(SECRET);
        assertThat(scopes.stats().misses()).as("same graph, same denials: from the cache").isEqualTo(built);
        Path policy = VAULT.resolve(SECRET + "_access.yaml");
        String closed = Files.readString(policy);
        try {
            Files.writeString(policy, "access_level: group\nallowed_groups: [platform-team, ml-team]\n");
            assertThat(query(charlie(), QUERIES.get(0), "hybrid").body()).contains(SECRET, MARKER);
            assertThat(scopes.stats().misses()).isEqualTo(built + 1);
        } finally {
            Files.writeString(policy, closed);
        }
        assertThat(query(charlie(), QUERIES.get(0), "hybrid").body()).doesNotContain(SECRET, MARKER);
    }

    void reindex() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/memory/admin/reindex")).header("Authorization", "Bearer " + dana())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        System.out.printf("ProjectFilterScaleProdOidcTest: reindex after deleting %d denied notes %d ms%n",
                DENIED - DENIED_KEPT, (System.nanoTime() - t0) / 1_000_000);
    }
}
