package io.poimen.memory.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reads by the names agents know, with OIDC on, over REST and with the MCP SDK's own client: a wiki-link name, an
 * alias, a path tail or a {@code memory://} URL reads the note; a name several readable notes have answers their
 * paths (and only theirs); a name that only a note the caller may not read has answers exactly as a name nothing
 * has.
 */
class NoteNamesOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String POD_CRASHES = "projects/poimen/debugging/pod-crashes.md";
    static final String GPU_NODE = "projects/ml-training/runbooks/gpu-node.md";
    static final String PRIVATE_SKILL = "shared/skills/SKILL-private-debug/SKILL.md";

    /** Names only the ml-team's notes have, each with the note it names. */
    static final Map<String, String> DENIED_NAMES = Map.of(
            "gpu-node", GPU_NODE,
            "runbooks/gpu-node", GPU_NODE,
            "memory://ml-training/gpu-node", GPU_NODE,
            "memory://gpu-node", GPU_NODE,
            "planted-secret", PLANTED_PATH,
            PLANTED_ALIAS, PLANTED_PATH,
            "memory://ml-training/" + PLANTED_ALIAS, PLANTED_PATH,
            "SKILL-private-debug", PRIVATE_SKILL,
            "memory://shared/SKILL-private-debug", PRIVATE_SKILL,
            "shared:skills/SKILL-private-debug#Heading", PRIVATE_SKILL);

    HttpResponse<String> read(String token, String name) throws Exception {
        return get(token, "/memory/vault/file?path=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    static String nope(String name) {
        int hash = name.indexOf('#');
        return hash < 0 ? name + "-nope" : name.substring(0, hash) + "-nope" + name.substring(hash);
    }

    @Test
    void restReadsANoteByItsNameAliasPathTailOrMemoryUrl() throws Exception {
        for (String name : List.of(POD_CRASHES, "pod-crashes", "Pod-Crashes", "pod-crashes.md", "Pod crash guide",
                "crashing pods", "debugging/pod-crashes", "projects/poimen/debugging/pod-crashes",
                "pod-crashes#Symptoms", "pod-crashes|the guide", "memory://pod-crashes",
                "memory://poimen/pod-crashes", "memory://poimen/debugging/pod-crashes.md", "MEMORY://poimen/Pod crash guide",
                "memory://" + POD_CRASHES)) {
            HttpResponse<String> r = read(charlie(), name);
            assertThat(r.statusCode()).as(name + ": " + r.body()).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).path("path").asText()).as(name).isEqualTo(POD_CRASHES);
        }
        JsonNode gitops = JSON.readTree(read(charlie(), "memory://shared/gitops").body());
        assertThat(gitops.path("path").asText()).isEqualTo("shared/concepts/gitops.md");
        HttpResponse<String> backlinks = get(charlie(), "/memory/graph/backlinks?path=Pod%20crash%20guide");
        assertThat(backlinks.statusCode()).as(backlinks.body()).isEqualTo(200);
        assertThat(JSON.readTree(backlinks.body()).path("path").asText()).isEqualTo(POD_CRASHES);
        // a memory:// URL keeps the path guard: traversal is a bad path, not a lookup
        HttpResponse<String> traversal = read(charlie(), "memory://../pom.xml");
        assertThat(traversal.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(traversal.body()).path("error").asText()).isEqualTo("bad_path");
    }

    @Test
    void anAmbiguousNameAnswersOnlyTheCandidatesTheCallerMayRead() throws Exception {
        // three projects have an index; charlie reads poimen and the public rust-guide, not ml-training
        HttpResponse<String> charlies = read(charlie(), "index");
        assertThat(charlies.statusCode()).as(charlies.body()).isEqualTo(409);
        JsonNode body = JSON.readTree(charlies.body());
        assertThat(body.path("error").asText()).isEqualTo("ambiguous");
        assertThat(JSON.convertValue(body.path("candidates"), List.class))
                .containsExactly("projects/poimen/index.md", "projects/rust-guide/index.md");
        assertThat(body.path("message").asText()).doesNotContain("ml-training");
        // the ml-team reads ml-training and rust-guide, not poimen
        assertThat(JSON.convertValue(JSON.readTree(read(bob(), "index").body()).path("candidates"), List.class))
                .containsExactly("projects/ml-training/index.md", "projects/rust-guide/index.md");
        // one readable note of the name is the answer, whatever the caller may not read
        JsonNode nobodys = JSON.readTree(read(nobody(), "index").body());
        assertThat(nobodys.path("path").asText()).isEqualTo("projects/rust-guide/index.md");
        assertThat(JSON.readTree(read(nobody(), "ownership").body()).path("path").asText())
                .isEqualTo("projects/rust-guide/memories/ownership.md");
        // a memory:// URL with a project chooses among that project's notes
        assertThat(JSON.readTree(read(charlie(), "memory://poimen/index").body()).path("path").asText())
                .isEqualTo("projects/poimen/index.md");
        assertThat(JSON.readTree(read(charlie(), "memory://rust-guide/ownership").body()).path("path").asText())
                .isEqualTo("projects/rust-guide/memories/ownership.md");
    }

    @Test
    void restNamesOnlyADeniedNoteHasAnswerExactlyAsNamesNothingHas() throws Exception {
        for (Map.Entry<String, String> e : DENIED_NAMES.entrySet()) {
            String name = e.getKey();
            HttpResponse<String> bobs = read(bob(), name);
            assertThat(bobs.statusCode()).as("the ml-team reads " + name + ": " + bobs.body()).isEqualTo(200);
            assertThat(JSON.readTree(bobs.body()).path("path").asText()).as(name).isEqualTo(e.getValue());
            for (String token : List.of(charlie(), dave(), nobody())) {
                for (String path : List.of("/memory/vault/file?path=", "/memory/graph/backlinks?path=")) {
                    HttpResponse<String> denied = get(token, path + URLEncoder.encode(name, StandardCharsets.UTF_8));
                    HttpResponse<String> missing = get(token, path
                            + URLEncoder.encode(nope(name), StandardCharsets.UTF_8));
                    String what = path + name + " → " + denied.body() + " vs " + missing.body();
                    assertThat(denied.statusCode()).as(what).isEqualTo(404).isEqualTo(missing.statusCode());
                    assertThat(denied.headers().firstValue("content-type")).as(what)
                            .isEqualTo(missing.headers().firstValue("content-type"));
                    assertThat(denied.body()).as(what).isEqualTo(missing.body().replace(nope(name), name))
                            .doesNotContain(e.getValue(), PLANTED_TEXT, PLANTED_HEADING);
                }
            }
        }
    }

    @Test
    void mcpReadNoteAndBuildContextTakeNamesAndADeniedOneIsAMissingOne() throws Exception {
        try (McpSyncClient client = McpClients.connect(base(), charlie())) {
            for (String tool : List.of("read_note", "build_context")) {
                for (String name : List.of("pod-crashes", "Crashing pods", "memory://poimen/pod-crashes")) {
                    McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool,
                            Map.of("path", name)));
                    assertThat(r.isError()).as(tool + " " + name + ": " + McpClients.text(r)).isFalse();
                    assertThat(JSON.readTree(McpClients.text(r)).path("path").asText()).as(tool + " " + name)
                            .isEqualTo(POD_CRASHES);
                }
                McpSchema.CallToolResult ambiguous = client.callTool(new McpSchema.CallToolRequest(tool,
                        Map.of("path", "index")));
                assertThat(ambiguous.isError()).isTrue();
                assertThat(McpClients.text(ambiguous)).as(tool)
                        .isEqualTo("HTTP 409 ambiguous: index names 2 notes: projects/poimen/index.md, "
                                + "projects/rust-guide/index.md; read one by its path");
                for (String name : DENIED_NAMES.keySet()) {
                    McpSchema.CallToolResult denied = client.callTool(new McpSchema.CallToolRequest(tool,
                            Map.of("path", name)));
                    McpSchema.CallToolResult missing = client.callTool(new McpSchema.CallToolRequest(tool,
                            Map.of("path", nope(name))));
                    assertThat(denied.isError()).as(tool + " " + name).isTrue();
                    assertThat(missing.isError()).isTrue();
                    assertThat(McpClients.text(denied)).as(tool + " " + name)
                            .isEqualTo(McpClients.text(missing).replace(nope(name), name))
                            .startsWith("HTTP 404 not_found: ");
                }
            }
        }
        try (McpSyncClient client = McpClients.connect(base(), bob())) {
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("read_note",
                    Map.of("path", PLANTED_ALIAS)));
            assertThat(r.isError()).as(McpClients.text(r)).isFalse();
            assertThat(JSON.readTree(McpClients.text(r)).path("path").asText()).isEqualTo(PLANTED_PATH);
        }
    }
}
