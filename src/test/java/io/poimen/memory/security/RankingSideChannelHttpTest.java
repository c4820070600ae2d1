package io.poimen.memory.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.AnswerFigures;
import io.poimen.memory.testsupport.TestIssuer;
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
import java.util.Set;
import java.util.TreeMap;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * The ranking side channel over HTTP, in oidc mode, on the embedded stores (H2, Lucene): one caller asks the same
 * {@value #QUERY_COUNT} generated queries, with every search method, of three vaults that differ only in notes the
 * caller may not read (in a private folder of the project, a private folder three levels down, a group-only
 * shared folder linked from readable notes, and another project): A with a few such notes; B with
 * {@value #ADDED} more, long and heavy in some of the query words (index-wide document frequencies and average
 * lengths move); C with those deleted again (the BM25 engines count deleted documents until a merge). For each pair
 * of vaults and each query, the answers must be the same where docs/security.md says they are
 * ({@link AnswerFigures#assertSameWhereGuaranteed}), and no answer holds anything of an unreadable note. The figures
 * that did move are printed per method.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "poimen.security.mode=oidc",
        "poimen.data.dir=target/it-ranking/data-${random.uuid}",
        "spring.datasource.url=jdbc:h2:mem:ranking-${random.uuid};MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1;DEFAULT_NULL_ORDERING=HIGH",
        "poimen.vault.ingest-on-startup=true",
        // hundreds of queries by one caller within a minute: the per-caller limit is not what this test is about
        "poimen.limits.query-per-minute=0",
        "camel.main.routes-reload-enabled=false"})
class RankingSideChannelHttpTest {
    static MockOAuth2Server issuer;
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final int QUERY_COUNT = 60;
    static final int READABLE = 70;
    /** Unreadable notes of vault A, per place. */
    static final int KEPT = 2;
    /** Unreadable notes added for vault B, per place (×4 places). */
    static final int ADDED_PER_PLACE = 10;
    static final int ADDED = 4 * ADDED_PER_PLACE;
    static final List<String> METHODS = List.of("hybrid", "lexical", "semantic", "tfidf");
    /** The folders of unreadable notes: each governed by a policy charlie does not pass. */
    static final List<String> DENIED_PLACES = List.of("projects/rank/private/", "projects/rank/area-1/deep/er/secret/",
            "shared/restricted/", "projects/other/");
    static final String MARKER = "vexorquant";
    /**
     * A word of a readable note and its neighbour one edit away that only unreadable notes of vault B hold: a query
     * for the neighbour finds the readable note by typo tolerance in every vault.
     */
    static final String TYPO_READABLE = "glimmerbrook";
    static final String TYPO_HIDDEN = "glimmerbrock";
    static final List<String> WORDS = List.of("kubectl", "pod", "crash", "rollout", "deploy", "canary", "helm",
            "node", "drain", "cluster", "ingress", "certificate", "backup", "restore", "latency", "cache", "queue",
            "retry", "timeout", "gateway", "schema", "migration", "index", "vector", "shard", "replica", "lease",
            "token", "secret", "policy", "audit", "metric", "alert", "dashboard", "runbook", "incident", "postmortem",
            "budget", "quota", "scaling", "memory", "thread", "heap", "garbage", "network", "dns", "proxy", "tls",
            "kernel", "volume", "snapshot", "bucket", "object", "storage", "journal", "compaction", "tombstone",
            "partition", "consumer", "producer", "broker", "topic", "offset", "checkpoint", "watermark", "window",
            "join", "shuffle", "executor", "driver", "scheduler", "cron", "webhook", "signature", "payload", "header",
            "cookie", "session", "login", "password", "rotation", "vault", "sealing", "unseal", "operator", "crd",
            "controller", "reconcile", "finalizer", "annotation", "label", "selector", "taint", "toleration",
            "affinity", "probe", "readiness", "liveness", "startup", "sidecar", "mesh", "envoy", "circuit", "breaker",
            "bulkhead", "fallback", "throttle", "limiter", "bucketing", "histogram", "quantile", "exemplar", "trace",
            "span", "baggage", "sampler", "collector", "exporter", "receiver", "pipeline", "processor", "batch",
            "stream", "lambda", "function", "container", "image", "registry", "layer", "digest", "manifest");
    /** The words the added unreadable notes repeat, so their frequencies and lengths move most. */
    static final List<String> HEAVY = WORDS.subList(0, 24);

    static Path vault;

    @LocalServerPort int port;

    @DynamicPropertySource
    static synchronized void issuerAndVault(DynamicPropertyRegistry registry) throws IOException {
        if (issuer == null) { // one issuer for this class and its prod-store subclass (stopped with the JVM)
            issuer = TestIssuer.start();
        }
        vault = Path.of("target/it-ranking/vault-" + java.util.UUID.randomUUID());
        writeVault(vault);
        Path v = vault;
        String issuerUrl = TestIssuer.issuerUrl(issuer);
        registry.add("poimen.security.issuer-uri", () -> issuerUrl);
        registry.add("poimen.vault.path", v::toString);
    }

    static void writeVault(Path root) throws IOException {
        FileSystemUtils.deleteRecursively(root);
        write(root, "projects/rank/_access.yaml", "access_level: group\nallowed_groups: [platform-team]\n");
        write(root, "projects/rank/private/_access.yaml", "access_level: private\nowner_group: ml-team\n");
        write(root, "projects/rank/area-1/deep/er/secret/_access.yaml", "access_level: private\nowner_group: ml-team\n");
        write(root, "shared/restricted/_access.yaml", "access_level: group\nallowed_groups: [ml-team]\n");
        write(root, "projects/other/_access.yaml", "access_level: group\nallowed_groups: [ml-team]\n");
        write(root, "shared/concepts/rank-basics.md", "# Basics\n\nA shared concept on rollout, canary and drain.\n");
        Random random = new Random(7);
        for (int i = 0; i < READABLE; i++) {
            // by name: a readable note's own text naming the folder would be the note's doing, not a leak
            String link = i % 10 == 0 ? "\n\nSee [[shared/concepts/rank-basics]] and [[r-" + i / 10 + "]].\n" : "\n";
            String typo = i == 3 ? " " + TYPO_READABLE : "";
            write(root, "projects/rank/area-" + i % 5 + "/n-" + i + ".md", "# Note " + i + "\n\n"
                    + words(random, WORDS, 6 + random.nextInt(25)) + typo + "." + link);
        }
        for (String place : DENIED_PLACES) {
            for (int i = 0; i < KEPT; i++) {
                write(root, place + hiddenName(place, i), "# Hidden " + i + "\n\n" + words(random, WORDS, 20) + " "
                        + MARKER + i + ".\n");
            }
        }
    }

    /** Vault B: the unreadable notes of A plus {@value #ADDED} long ones, heavy in {@link #HEAVY}. */
    static void addHeavyNotes(Path root) throws IOException {
        Random random = new Random(11);
        for (String place : DENIED_PLACES) {
            for (int i = KEPT; i < KEPT + ADDED_PER_PLACE; i++) {
                write(root, place + hiddenName(place, i), "# Hidden " + i + "\n\n" + words(random, HEAVY,
                        60 + random.nextInt(200)) + " " + TYPO_HIDDEN + " " + MARKER + i + ".\n");
            }
        }
    }

    static void deleteHeavyNotes(Path root) throws IOException {
        for (String place : DENIED_PLACES) {
            for (int i = KEPT; i < KEPT + ADDED_PER_PLACE; i++) {
                Files.delete(root.resolve(place + hiddenName(place, i)));
            }
        }
    }

    static String hiddenName(String place, int i) {
        return (place.startsWith("shared/") ? "r-" : "h-") + i + ".md";
    }

    static void write(Path root, String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    static String words(Random random, List<String> from, int n) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(i == 0 ? "" : " ").append(from.get(random.nextInt(from.size())));
        }
        return out.toString();
    }

    /** One to four words, half of them from {@link #HEAVY}; and the typo neighbour alone and with two words. */
    static List<String> queries() {
        Random random = new Random(3);
        Set<String> out = new java.util.LinkedHashSet<>();
        while (out.size() < QUERY_COUNT - 2) {
            int n = 1 + random.nextInt(4);
            StringBuilder q = new StringBuilder();
            for (int i = 0; i < n; i++) {
                List<String> from = random.nextBoolean() ? HEAVY : WORDS;
                q.append(i == 0 ? "" : " ").append(from.get(random.nextInt(from.size())));
            }
            out.add(q.toString());
        }
        out.add(TYPO_HIDDEN);
        out.add(TYPO_HIDDEN + " canary rollout");
        return List.copyOf(out);
    }

    /** Reads project rank and shared/concepts; none of the denied places. */
    static String charlie() {
        return TestIssuer.token(issuer, "charlie", List.of("platform-team"), List.of("viewer"));
    }

    /** Reads everything; may reindex. */
    static String dana() {
        return TestIssuer.token(issuer, "dana", List.of("platform-team", "ml-team"), List.of("admin"));
    }

    HttpResponse<String> query(String bearer, String text, String method) throws Exception {
        String body = JSON.writeValueAsString(Map.of("project", "rank", "query", text, "search_method", method,
                "top_k", 100, "budget_tokens", 200_000));
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/memory/query"))
                .header("Authorization", "Bearer " + bearer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    void reindex() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/memory/admin/reindex")).header("Authorization", "Bearer " + dana())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    /** "method: query" → charlie's answer, each checked to hold nothing of an unreadable note. */
    Map<String, JsonNode> answers(List<String> queries) throws Exception {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        String bearer = charlie();
        for (String text : queries) {
            for (String method : METHODS) {
                HttpResponse<String> r = query(bearer, text, method);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                List<String> denied = List.of(MARKER, "private/", "secret/", "restricted/", "projects/other/",
                        "Hidden ");
                assertThat(denied.stream().filter(r.body()::contains).toList()).as(method + ": " + text).isEmpty();
                JsonNode answer = AnswerFigures.comparable(r.body());
                assertThat(answer.path("degraded")).as(r.body()).isEmpty();
                out.put(method + ": " + text, answer);
            }
        }
        return out;
    }

    @Test
    void answersOfVaultsThatDifferOnlyInUnreadableNotesAreTheSameWhereTheGuaranteeSaysSo() throws Exception {
        List<String> queries = queries();
        Map<String, Map<String, JsonNode>> vaults = new LinkedHashMap<>();
        vaults.put("A", answers(queries));
        assertThat(query(dana(), MARKER + "0", "lexical").body()).as("the unreadable notes are indexed")
                .contains(MARKER + "0");
        addHeavyNotes(vault);
        reindex();
        vaults.put("B", answers(queries));
        deleteHeavyNotes(vault);
        reindex();
        vaults.put("C", answers(queries));

        List<String[]> pairs = List.of(new String[] {"A", "B"}, new String[] {"B", "C"}, new String[] {"A", "C"});
        Map<String, Integer> differing = new TreeMap<>();
        Map<String, Map<String, Integer>> byFigure = new TreeMap<>();
        int comparisons = 0;
        for (String[] pair : pairs) {
            Map<String, JsonNode> a = vaults.get(pair[0]);
            Map<String, JsonNode> b = vaults.get(pair[1]);
            for (String key : a.keySet()) {
                String method = key.substring(0, key.indexOf(':'));
                comparisons++;
                Set<String> moved = AnswerFigures.differing(a.get(key), b.get(key));
                if (!moved.isEmpty()) {
                    differing.merge(pair[0] + "/" + pair[1] + " " + method, 1, Integer::sum);
                }
                moved.forEach(f -> byFigure.computeIfAbsent(method, m -> new TreeMap<>()).merge(f, 1, Integer::sum));
            }
        }
        System.out.printf("%s: %d vault pairs x %d queries x %d methods = %d comparisons; answers that differ, by "
                        + "vault pair and method %s; figures that moved, by method %s%n", getClass().getSimpleName(),
                pairs.size(), queries.size(), METHODS.size(), comparisons, differing, byFigure);

        // every query's BM25 matches in scope fit into the lexical branch's list, so calls.candidates is compared
        assertThat(vaults.get("A").entrySet().stream().filter(e -> AnswerFigures.lexicalRan(e.getKey().split(":")[0])
                && e.getValue().path("calls").path("branches").path("lexical").asInt() >= 50).map(Map.Entry::getKey)
                .toList()).isEmpty();
        // a word only unreadable notes hold does not stop typo tolerance finding its neighbour in a readable note
        for (String v : vaults.keySet()) {
            assertThat(vaults.get(v).get("lexical: " + TYPO_HIDDEN).path("results").findValuesAsText("path"))
                    .as("vault " + v).containsExactly("projects/rank/area-3/n-3.md");
        }
        for (String[] pair : pairs) {
            Map<String, JsonNode> a = vaults.get(pair[0]);
            Map<String, JsonNode> b = vaults.get(pair[1]);
            for (String key : a.keySet()) {
                AnswerFigures.assertSameWhereGuaranteed(pair[0] + " / " + pair[1] + ", " + key,
                        key.substring(0, key.indexOf(':')), a.get(key), b.get(key));
            }
        }
    }
}
