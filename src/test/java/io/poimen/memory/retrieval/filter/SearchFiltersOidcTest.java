package io.poimen.memory.retrieval.filter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.ExampleVault;
import io.poimen.memory.testsupport.GitCommits;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Search filters, {@code recent_activity} and {@code list_directory} with OIDC on, over REST and through the MCP
 * SDK's client, on a copy of the example vault with a planning folder of notes whose front matter, tags and git
 * times differ, and one note ({@link #SECRET}) that matches every filter but only platform-team may read: charlie
 * (platform-team) sees it, dave (devops-team) never does, in no result, listing or count.
 */
class SearchFiltersOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path FILTER_VAULT = Path.of("target/it-filters/vault-" + UUID.randomUUID());
    static final String PLANNING = "projects/poimen/planning/";
    static final String ALPHA = PLANNING + "alpha.md";
    static final String BETA = PLANNING + "beta.md";
    static final String GAMMA = PLANNING + "gamma.md";
    static final String SECRET = "projects/poimen/restricted/secret-plan.md";
    /** When the planning notes were last committed, except alpha and the secret (two days before the test). */
    static final Instant OLD = Instant.parse("2025-06-01T00:00:00Z");
    static final String QUERY = "quarkplan rollout checklist";

    @DynamicPropertySource
    static void filterVault(DynamicPropertyRegistry registry) throws Exception {
        synchronized (FILTER_VAULT) {
            if (!Files.exists(FILTER_VAULT)) {
                plantVault();
            }
        }
        registry.add("poimen.test.vault-path", FILTER_VAULT::toString);
    }

    static void plantVault() throws Exception {
        ExampleVault.copyTo(FILTER_VAULT);
        note(BETA, "status: done\npriority: 1\ndue: 2026-10-01\ntags: [planning]", "Beta");
        Files.writeString(FILTER_VAULT.resolve(BETA), "Phase two: #quarkplan/phase2\n",
                java.nio.file.StandardOpenOption.APPEND);
        note(GAMMA, "status: idea\npriority: 4\ndue: 2027-02-01\ntags: [planning]", "Gamma");
        note(ALPHA, "status: draft\npriority: 2\ndue: 2026-11-20\ntags: [planning, quarkplan]", "Alpha (old)");
        GitCommits.write(FILTER_VAULT, "projects/poimen/restricted/_access.yaml", """
                project: poimen
                owner_group: platform-team
                access_level: group
                allowed_groups: [platform-team]
                required_role: null
                """);
        try (Git git = Git.init().setDirectory(FILTER_VAULT.toFile()).setInitialBranch("main").call()) {
            GitCommits.commitAll(git, OLD);
            note(ALPHA, "status: draft\npriority: 2\ndue: 2026-11-20\ntags: [planning, quarkplan]", "Alpha");
            note(SECRET, "status: draft\npriority: 3\ndue: 2026-11-21\ntags: [planning, quarkplan]", "Secret");
            GitCommits.commitAll(git, Instant.now().minus(2, ChronoUnit.DAYS));
        }
    }

    /** A note whose text differs from the others' (near-duplicates would be folded into one result). */
    static void note(String path, String frontMatter, String name) throws IOException {
        String body = switch (name.split(" ")[0]) {
            case "Alpha" -> "The quarkplan rollout checklist for the alpha cluster: freeze the release branch, tag "
                    + "the candidate and page the on-call engineer before the window opens.";
            case "Beta" -> "Beta keeps the quarkplan rollout checklist for database migrations: snapshot every "
                    + "volume, rehearse the restore on staging and keep the old schema readable for a week.";
            case "Gamma" -> "Gamma is only an idea: a quarkplan rollout checklist for certificates, rotating the "
                    + "issuer keys first and watching expiry alerts across all ingress controllers.";
            default -> "The restricted quarkplan rollout checklist names the break-glass accounts, where their "
                    + "credentials are sealed and who signs off on opening them.";
        };
        GitCommits.write(FILTER_VAULT, path, "---\n" + frontMatter + "\n---\n# " + name + " plan\n\n" + body + "\n");
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    /** The note paths of a REST query's results. */
    List<String> query(String token, String filters, String method, int topK) throws Exception {
        String body = "{\"project\":\"poimen\",\"query\":\"" + QUERY + "\",\"top_k\":" + topK
                + (method == null ? "" : ",\"search_method\":\"" + method + "\"")
                + (filters == null ? "" : ",\"filters\":" + filters) + "}";
        HttpResponse<String> r = post(token, "/memory/query", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<String> paths = new ArrayList<>();
        JSON.readTree(r.body()).path("results").forEach(x -> paths.add(x.path("path").asText()));
        return paths;
    }

    static List<String> distinct(List<String> paths) {
        return List.copyOf(new TreeSet<>(paths));
    }

    @Test
    void eachFilterNarrowsEveryBranchToTheMatchingNotesAndTopKFillsWithThem() throws Exception {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        expected.put("{\"path_prefix\":\"" + PLANNING + "\"}", List.of(ALPHA, BETA, GAMMA));
        expected.put("{\"tags\":[\"quarkplan\"]}", List.of(ALPHA, BETA)); // beta: the inline #quarkplan/phase2
        expected.put("{\"changed_after\":\"30d\",\"path_prefix\":\"projects/poimen/\"}", List.of(ALPHA));
        expected.put("{\"changed_before\":\"2025-06-02\",\"path_prefix\":\"" + PLANNING + "\"}", List.of(BETA, GAMMA));
        expected.put("{\"fields\":{\"status\":\"draft\"}}", List.of(ALPHA));
        expected.put("{\"fields\":{\"status\":{\"in\":[\"done\",\"idea\"]}}}", List.of(BETA, GAMMA));
        expected.put("{\"fields\":{\"priority\":{\"gte\":2}}}", List.of(ALPHA, GAMMA));
        expected.put("{\"fields\":{\"due\":{\"between\":[\"2026-11-01\",\"2027-12-31\"]}}}", List.of(ALPHA, GAMMA));
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            // hybrid and semantic answer every matching note; the TF-IDF and BM25 branches alone answer matching
            // notes only, but not always all: min-max normalisation puts a branch's weakest hit at 0, under
            // their threshold (0.02), so of a few candidates the last is dropped
            for (String method : new String[] {"semantic", null}) {
                List<String> dave = query(dave(), e.getKey(), method, 10);
                assertThat(distinct(dave)).as("dave, %s, %s", method, e.getKey()).isEqualTo(e.getValue());
            }
            for (String method : new String[] {"tfidf", "lexical"}) {
                List<String> dave = query(dave(), e.getKey(), method, 10);
                assertThat(dave).as("dave, %s, %s", method, e.getKey()).isNotEmpty()
                        .allMatch(e.getValue()::contains);
            }
        }
        // top-k holds matching notes only, as many as asked for: the filter ran before the branches, not after
        List<String> unfiltered = query(dave(), null, null, 2);
        assertThat(unfiltered).as("without a filter the best two are other notes").doesNotContain(GAMMA);
        assertThat(distinct(query(dave(), "{\"fields\":{\"status\":\"idea\"},\"path_prefix\":\"" + PLANNING + "\"}",
                null, 2))).containsExactly(GAMMA);
        assertThat(query(dave(), "{\"path_prefix\":\"" + PLANNING + "\"}", null, 3)).hasSize(3)
                .allMatch(p -> p.startsWith(PLANNING));
    }

    @Test
    void aDeniedNoteNeverShowsInAFilteredSearchWhileItsReaderSeesIt() throws Exception {
        for (String filters : List.of("{\"tags\":[\"quarkplan\"]}", "{\"fields\":{\"status\":\"draft\"}}",
                "{\"changed_after\":\"7d\"}", "{\"path_prefix\":\"projects/poimen/restricted/\"}")) {
            for (String method : new String[] {"semantic", null}) {
                assertThat(query(charlie(), filters, method, 10)).as("charlie, %s, %s", method, filters)
                        .contains(SECRET);
            }
            for (String method : new String[] {"tfidf", "lexical", "semantic", null}) {
                assertThat(query(dave(), filters, method, 10)).as("dave, %s, %s", method, filters)
                        .doesNotContain(SECRET);
            }
        }
        assertThat(query(dave(), "{\"path_prefix\":\"projects/poimen/restricted/\"}", null, 10)).isEmpty();
    }

    @Test
    void aMalformedFilterIs400JsonNamingIt() throws Exception {
        HttpResponse<String> r = post(dave(), "/memory/query", "{\"project\":\"poimen\",\"query\":\"x\","
                + "\"filters\":{\"fields\":{\"priority\":{\"gte\":\"high\"}}}}");
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(r.body());
        assertThat(error.path("error").asText()).isEqualTo("bad_request");
        assertThat(error.path("message").asText()).startsWith("filters.fields.priority.gte ");
        assertThat(post(dave(), "/memory/query", "{\"project\":\"poimen\",\"query\":\"x\",\"filters\":[]}")
                .statusCode()).isEqualTo(400);
        assertThat(get(dave(), "/memory/vault/recent?timeframe=soon").statusCode()).isEqualTo(400);
        assertThat(get(dave(), "/memory/vault/recent?limit=x").statusCode()).isEqualTo(400);
        assertThat(get(dave(), "/memory/vault/directory?path=../etc").statusCode()).isEqualTo(400);
    }

    JsonNode getJson(String token, String pathAndQuery) throws Exception {
        HttpResponse<String> r = get(token, pathAndQuery);
        assertThat(r.statusCode()).as(pathAndQuery + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    static List<String> paths(JsonNode notes) {
        List<String> out = new ArrayList<>();
        notes.forEach(n -> out.add(n.path("path").asText()));
        return out;
    }

    @Test
    void recentActivityAndDirectoriesListAndCountOnlyReadableNotes() throws Exception {
        for (String timeframe : List.of("7d", "last week", "2 weeks", "yesterday")) {
            String q = "/memory/vault/recent?project=poimen&timeframe=" + URLEncoder.encode(timeframe,
                    StandardCharsets.UTF_8);
            JsonNode charlie = getJson(charlie(), q);
            JsonNode dave = getJson(dave(), q);
            List<String> recent = timeframe.equals("yesterday") ? List.of() : List.of(ALPHA);
            assertThat(paths(dave.path("notes"))).as(timeframe).isEqualTo(recent);
            assertThat(dave.path("count").asInt()).as(timeframe).isEqualTo(recent.size());
            List<String> withSecret = timeframe.equals("yesterday") ? List.of() : List.of(ALPHA, SECRET);
            assertThat(distinct(paths(charlie.path("notes")))).as(timeframe).isEqualTo(withSecret);
            assertThat(charlie.path("count").asInt()).isEqualTo(withSecret.size());
        }
        JsonNode wholeVault = getJson(dave(), "/memory/vault/recent?timeframe=2025-05-01&limit=1");
        assertThat(wholeVault.path("notes")).hasSize(1);
        assertThat(wholeVault.path("truncated").asBoolean()).isTrue();
        assertThat(paths(wholeVault.path("notes"))).containsExactly(ALPHA); // newest first

        JsonNode daveRoot = getJson(dave(), "/memory/vault/directory?path=projects/poimen");
        JsonNode charlieRoot = getJson(charlie(), "/memory/vault/directory?path=projects/poimen/");
        assertThat(charlieRoot.path("count").asInt()).isEqualTo(daveRoot.path("count").asInt() + 1);
        assertThat(folders(daveRoot)).containsEntry(PLANNING, 3).doesNotContainKey("projects/poimen/restricted/");
        assertThat(folders(charlieRoot)).containsEntry("projects/poimen/restricted/", 1);
        assertThat(paths(daveRoot.path("notes"))).contains("projects/poimen/index.md");
        assertThat(get(dave(), "/memory/vault/directory?path=projects/poimen/restricted").statusCode())
                .as("a folder of denied notes answers as a missing one").isEqualTo(404);
        assertThat(get(dave(), "/memory/vault/directory?path=projects/nowhere").statusCode()).isEqualTo(404);
        assertThat(paths(getJson(charlie(), "/memory/vault/directory?path=projects/poimen/restricted")
                .path("notes"))).containsExactly(SECRET);
        JsonNode root = getJson(dave(), "/memory/vault/directory");
        assertThat(folders(root)).containsKeys("projects/", "shared/");
        assertThat(folders(getJson(dave(), "/memory/vault/directory?path=projects"))).doesNotContainKey(
                "projects/ml-training/");
    }

    static Map<String, Integer> folders(JsonNode directory) {
        Map<String, Integer> out = new LinkedHashMap<>();
        directory.path("folders").forEach(f -> out.put(f.path("path").asText(), f.path("count").asInt()));
        return out;
    }

    McpSchema.CallToolResult call(String token, String tool, Map<String, Object> args) {
        try (McpSyncClient client = McpClients.connect(base(), token)) {
            return client.callTool(new McpSchema.CallToolRequest(tool, args));
        }
    }

    JsonNode callJson(String token, String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = call(token, tool, args);
        assertThat(r.isError()).as(McpClients.text(r)).isFalse();
        return JSON.readTree(McpClients.text(r));
    }

    @Test
    void mcpSearchTakesEveryFilterAndBrowsingToolsHideDeniedNotes() throws Exception {
        // filters → what dave sees; charlie also sees the secret where it matches (true)
        Map<Map<String, Object>, List<String>> expected = new LinkedHashMap<>();
        Map<Map<String, Object>, Boolean> secretMatches = new LinkedHashMap<>();
        expected.put(Map.of("path_prefix", PLANNING), List.of(ALPHA, BETA, GAMMA));
        secretMatches.put(Map.of("path_prefix", PLANNING), false);
        expected.put(Map.of("tags", List.of("quarkplan")), List.of(ALPHA, BETA));
        secretMatches.put(Map.of("tags", List.of("quarkplan")), true);
        expected.put(Map.of("changed_after", "last week", "path_prefix", "projects/poimen/"), List.of(ALPHA));
        secretMatches.put(Map.of("changed_after", "last week", "path_prefix", "projects/poimen/"), true);
        expected.put(Map.of("changed_before", "2025-06-02", "path_prefix", PLANNING), List.of(BETA, GAMMA));
        secretMatches.put(Map.of("changed_before", "2025-06-02", "path_prefix", PLANNING), false);
        expected.put(Map.of("fields", Map.of("status", "draft")), List.of(ALPHA));
        secretMatches.put(Map.of("fields", Map.of("status", "draft")), true);
        expected.put(Map.of("fields", Map.of("status", Map.of("$in", List.of("done", "idea")))), List.of(BETA, GAMMA));
        secretMatches.put(Map.of("fields", Map.of("status", Map.of("$in", List.of("done", "idea")))), false);
        expected.put(Map.of("fields", Map.of("priority", Map.of("$gt", 1))), List.of(ALPHA, GAMMA));
        secretMatches.put(Map.of("fields", Map.of("priority", Map.of("$gt", 1))), true);
        expected.put(Map.of("fields", Map.of("due", Map.of("$between", List.of("2026-11-01", "2027-12-31")))),
                List.of(ALPHA, GAMMA));
        secretMatches.put(Map.of("fields", Map.of("due", Map.of("$between", List.of("2026-11-01", "2027-12-31")))),
                true);
        for (Map.Entry<Map<String, Object>, List<String>> e : expected.entrySet()) {
            JsonNode dave = callJson(dave(), "search_memory", Map.of("project", "poimen", "query", QUERY,
                    "filters", e.getKey()));
            assertThat(distinct(paths(dave.path("results")))).as("dave %s", e.getKey()).isEqualTo(e.getValue());
            JsonNode charlie = callJson(charlie(), "search_memory", Map.of("project", "poimen", "query", QUERY,
                    "filters", e.getKey()));
            List<String> withSecret = new ArrayList<>(e.getValue());
            if (secretMatches.get(e.getKey())) {
                withSecret.add(SECRET);
            }
            assertThat(distinct(paths(charlie.path("results")))).as("charlie %s", e.getKey())
                    .isEqualTo(distinct(withSecret));
        }
        McpSchema.CallToolResult bad = call(dave(), "search_memory", Map.of("project", "poimen", "query", QUERY,
                "filters", Map.of("fields", Map.of("priority", Map.of("gte", "high")))));
        assertThat(bad.isError()).isTrue();
        assertThat(McpClients.text(bad)).startsWith("HTTP 400 bad_request: filters.fields.priority.gte");

        JsonNode daveRecent = callJson(dave(), "recent_activity", Map.of("project", "poimen", "timeframe",
                "last week"));
        assertThat(paths(daveRecent.path("notes"))).containsExactly(ALPHA);
        assertThat(daveRecent.path("count").asInt()).isEqualTo(1);
        JsonNode charlieRecent = callJson(charlie(), "recent_activity", Map.of("project", "poimen"));
        assertThat(charlieRecent.path("count").asInt()).isEqualTo(2);
        JsonNode daveDir = callJson(dave(), "list_directory", Map.of("path", "projects/poimen"));
        JsonNode charlieDir = callJson(charlie(), "list_directory", Map.of("path", "projects/poimen"));
        assertThat(folders(daveDir)).doesNotContainKey("projects/poimen/restricted/");
        assertThat(folders(charlieDir)).containsEntry("projects/poimen/restricted/", 1);
        assertThat(charlieDir.path("count").asInt()).isEqualTo(daveDir.path("count").asInt() + 1);
        assertThat(daveDir.toString()).doesNotContain("secret-plan").doesNotContain("restricted");
        McpSchema.CallToolResult hidden = call(dave(), "list_directory", Map.of("path", "projects/poimen/restricted"));
        assertThat(hidden.isError()).isTrue();
        assertThat(McpClients.text(hidden)).startsWith("HTTP 404");

        try (McpSyncClient client = McpClients.connect(base(), dave())) {
            Map<String, McpSchema.Tool> tools = new LinkedHashMap<>();
            client.listTools().tools().forEach(t -> tools.put(t.name(), t));
            for (String name : List.of("recent_activity", "list_directory")) {
                McpSchema.ToolAnnotations a = tools.get(name).annotations();
                assertThat(List.of(a.readOnlyHint(), a.destructiveHint(), a.idempotentHint(), a.openWorldHint()))
                        .as(name).containsExactly(true, false, true, false);
            }
            assertThat(tools.get("search_memory").inputSchema().properties()).containsKey("filters");
        }
    }
}
