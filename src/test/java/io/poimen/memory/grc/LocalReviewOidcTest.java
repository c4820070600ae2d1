package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.poimen.memory.mcp.McpClients;
import io.poimen.memory.testsupport.OidcHubTestBase;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;

/**
 * Review on the hub with OIDC on (bearer tokens from the test issuer, over HTTP), no git host: the author may not
 * approve their own draft (self_approval is false), a caller who may read but not write its note and an outsider
 * see neither the draft nor its diff (the 404 of an unknown id, absent from the list) and cannot decide it, and
 * another editor approves it: merged into the vault repository and searchable.
 */
class LocalReviewOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String NOTE = "projects/poimen/debugging/network-policies.md";

    /** platform-team editor: writes poimen. */
    static String ann() {
        return token("ann", List.of("platform-team"), List.of("editor"));
    }

    /** devops-team editor: writes poimen too. */
    static String rita() {
        return token("rita", List.of("devops-team"), List.of("editor"));
    }

    @Test
    void theAuthorCannotApproveReadersAndOutsidersSeeNothingAnotherEditorMergesIt() throws Exception {
        HttpResponse<String> read = get(ann(), "/memory/vault/file?path=" + NOTE);
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        String version = JSON.readTree(read.body()).path("version").asText();
        String word = "quillcrest" + UUID.randomUUID().toString().substring(0, 8);
        String body = JSON.createObjectNode().put("message", "Mention the " + word + " probe")
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("operations", JSON.createArrayNode().add(
                        JSON.createObjectNode().put("op", "append").put("path", NOTE)
                                .put("content", "Probe egress with the " + word + " job.")))
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("base_versions",
                        JSON.createObjectNode().put(NOTE, version)).toString();
        HttpResponse<String> submitted = post(ann(), "/memory/grc/draft", body);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
        String id = JSON.readTree(submitted.body()).path("draft_id").asText();
        assertThat(JSON.readTree(submitted.body()).path("review_host").asText()).isEqualTo("local");

        HttpResponse<String> own = post(ann(), "/memory/grc/drafts/" + id + "/approve", "{}");
        assertThat(own.statusCode()).as(own.body()).isEqualTo(403);
        assertThat(JSON.readTree(own.body()).path("message").asText()).contains("self_approval");

        for (String other : List.of(charlie(), bob(), nobody())) {
            HttpResponse<String> shown = get(other, "/memory/grc/drafts/" + id);
            assertThat(shown.statusCode()).as(shown.body()).isEqualTo(404);
            assertThat(shown.body()).doesNotContain(word, NOTE);
            HttpResponse<String> listed = get(other, "/memory/grc/drafts?status=all");
            assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
            assertThat(listed.body()).doesNotContain(id, word);
            HttpResponse<String> approve = post(other, "/memory/grc/drafts/" + id + "/approve", "{}");
            assertThat(approve.statusCode()).as(approve.body()).isEqualTo(404);
            HttpResponse<String> reject = post(other, "/memory/grc/drafts/" + id + "/reject",
                    "{\"comment\":\"no\"}");
            assertThat(reject.statusCode()).as(reject.body()).isEqualTo(404);
        }
        assertThat(Files.readString(VAULT.resolve(NOTE))).doesNotContain(word);

        JsonNode seen = JSON.readTree(get(rita(), "/memory/grc/drafts/" + id).body());
        assertThat(seen.path("status").asText()).isEqualTo("open");
        assertThat(seen.path("may_approve").asBoolean()).isTrue();
        assertThat(seen.path("diff").get(0).path("diff").asText()).contains("+Probe egress with the " + word);
        HttpResponse<String> approved = post(rita(), "/memory/grc/drafts/" + id + "/approve",
                "{\"comment\":\"good\"}");
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(JSON.readTree(approved.body()).path("status").asText()).isEqualTo("merged");
        assertThat(JSON.readTree(approved.body()).path("review").path("reviewer").asText()).isEqualTo("rita");
        assertThat(Files.readString(VAULT.resolve(NOTE))).contains(word);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> q = post(rita(), "/memory/query",
                    "{\"project\":\"poimen\",\"query\":\"" + word + " egress probe\"}");
            assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
            assertThat(JSON.readTree(q.body()).path("results").get(0).path("text").asText()).contains(word);
        });
        HttpResponse<String> again = post(rita(), "/memory/grc/drafts/" + id + "/reject", "{\"comment\":\"late\"}");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
    }

    /**
     * A reviewer who sees a draft (reads its notes, writes one of them) but may not write another note it touches is
     * refused with 403 and the reason, for approve and reject alike, and is not offered either; someone who may write
     * every note approves it.
     */
    @Test
    void aReviewerWithoutWriteAccessOnATouchedNoteGets403() throws Exception {
        String folder = "projects/poimen/locked-" + UUID.randomUUID().toString().substring(0, 8);
        String locked = folder + "/escalation.md";
        String open = "projects/poimen/debugging/node-pressure.md";
        // a folder of poimen whose notes only platform-team may change, committed in the vault repository by hand
        Files.createDirectories(VAULT.resolve(folder));
        Files.writeString(VAULT.resolve(folder + "/_access.yaml"),
                "access_level: public\nwrite_groups: [platform-team]\n");
        Files.writeString(VAULT.resolve(locked), "# Escalation\n\nPage the platform team.\n");
        try (Git git = Git.open(VAULT.toFile())) {
            git.add().addFilepattern(folder).call();
            git.commit().setMessage("A folder only platform-team changes").setAuthor("Ops", "ops@example.org")
                    .setCommitter("Ops", "ops@example.org").call();
        }
        String word = "ridgeowl" + UUID.randomUUID().toString().substring(0, 8);
        String version = JSON.readTree(get(ann(), "/memory/vault/file?path=" + open).body()).path("version").asText();
        String body = JSON.createObjectNode().put("message", "Escalate " + word)
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("operations", JSON.createArrayNode()
                        .add(JSON.createObjectNode().put("op", "append").put("path", open)
                                .put("content", "Escalate with the " + word + " pager."))
                        .add(JSON.createObjectNode().put("op", "append").put("path", locked)
                                .put("content", "Then the " + word + " rota.")))
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("base_versions",
                        JSON.createObjectNode().put(open, version)).toString();
        HttpResponse<String> submitted = post(ann(), "/memory/grc/draft", body);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(201);
        String id = JSON.readTree(submitted.body()).path("draft_id").asText();

        // rita (devops-team editor) reads both notes and writes the first: she sees the draft and its diff
        HttpResponse<String> seen = get(rita(), "/memory/grc/drafts/" + id);
        assertThat(seen.statusCode()).as(seen.body()).isEqualTo(200);
        JsonNode draft = JSON.readTree(seen.body());
        assertThat(draft.path("diff").toString()).contains(word);
        assertThat(draft.path("may_approve").asBoolean()).isFalse();
        assertThat(draft.path("may_reject").asBoolean()).isFalse();
        HttpResponse<String> approve = post(rita(), "/memory/grc/drafts/" + id + "/approve", "{\"comment\":\"ok\"}");
        assertThat(approve.statusCode()).as(approve.body()).isEqualTo(403);
        assertThat(JSON.readTree(approve.body()).path("message").asText()).contains("write access",
                "not_in_write_groups");
        HttpResponse<String> reject = post(rita(), "/memory/grc/drafts/" + id + "/reject", "{\"comment\":\"no\"}");
        assertThat(reject.statusCode()).as(reject.body()).isEqualTo(403);
        assertThat(JSON.readTree(get(ann(), "/memory/grc/drafts/" + id).body()).path("status").asText())
                .isEqualTo("open");
        assertThat(Files.readString(VAULT.resolve(open))).doesNotContain(word);

        // pat (platform-team editor) may write both: approves, merged
        String pat = token("pat", List.of("platform-team"), List.of("editor"));
        HttpResponse<String> approved = post(pat, "/memory/grc/drafts/" + id + "/approve", "{}");
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(JSON.readTree(approved.body()).path("status").asText()).isEqualTo("merged");
        assertThat(Files.readString(VAULT.resolve(locked))).contains(word);
    }

    @Test
    void theMcpWritingToolsMakeDraftsWithTheirDiffAndATouchedPathTheCallerMayNotWriteGetsNoDraft() throws Exception {
        String note = "projects/poimen/runbooks/certificate-renewal.md";
        String fresh = "projects/poimen/memories/mcp-" + UUID.randomUUID().toString().substring(0, 8) + ".md";
        try (McpSyncClient client = McpClients.connect("http://127.0.0.1:" + port, ann())) {
            JsonNode read = ok(client, "read_note", Map.of("path", note));
            String version = read.path("version").asText();
            assertThat(version).matches("[0-9a-f]{40}");
            int before = ok(client, "list_drafts", Map.of("status", "all", "limit", 200)).path("drafts").size();

            JsonNode edited = ok(client, "edit_note", Map.of("path", note, "operation", "append", "content",
                    "Check the renewal with `cmctl status`.", "base_version", version, "message", "cmctl"));
            assertThat(edited.path("status").asText()).isEqualTo("open");
            JsonNode status = ok(client, "draft_status", Map.of("draft_id", edited.path("draft_id").asText()));
            assertThat(status.path("diff").get(0).path("diff").asText()).contains("+Check the renewal with `cmctl");

            JsonNode written = ok(client, "write_note", Map.of("path", fresh, "content", "# Fresh\n\nA new memory.\n",
                    "base_version", "", "message", "fresh"));
            JsonNode added = ok(client, "draft_status", Map.of("draft_id", written.path("draft_id").asText()));
            assertThat(added.path("diff").get(0).path("diff").asText()).contains("+A new memory.");

            JsonNode moved = ok(client, "move_note", Map.of("path", note, "to",
                    "projects/poimen/runbooks/cert-renewal.md", "base_version", version));
            JsonNode move = ok(client, "draft_status", Map.of("draft_id", moved.path("draft_id").asText()));
            assertThat(move.path("paths").toString()).contains("cert-renewal.md");

            // a destination the caller may not write (nor read): refused, nothing stored
            McpSchema.CallToolResult outside = client.callTool(new McpSchema.CallToolRequest("move_note", Map.of(
                    "path", note, "to", "projects/ml-training/runbooks/cert.md", "base_version", version)));
            assertThat(outside.isError()).isTrue();
            assertThat(McpClients.text(outside)).contains("refused, no draft was made", "403");
            McpSchema.CallToolResult delete = client.callTool(new McpSchema.CallToolRequest("delete_note",
                    Map.of("path", PLANTED_PATH, "base_version", "")));
            assertThat(delete.isError()).isTrue();
            assertThat(McpClients.text(delete)).contains("refused, no draft was made", "403");
            assertThat(ok(client, "list_drafts", Map.of("status", "all", "limit", 200)).path("drafts").size())
                    .isEqualTo(before + 3);
        }
        try (McpSyncClient viewer = McpClients.connect("http://127.0.0.1:" + port, charlie())) {
            McpSchema.CallToolResult refused = viewer.callTool(new McpSchema.CallToolRequest("edit_note", Map.of(
                    "path", note, "operation", "append", "content", "x", "base_version", "")));
            assertThat(refused.isError()).isTrue();
            assertThat(McpClients.text(refused)).contains("refused, no draft was made", "403", "editor");
        }
    }

    @Test
    void everyEditNoteOperationAndADeleteMakeADraftWhoseDiffShowsTheChange() throws Exception {
        String note = "projects/poimen/runbooks/certificate-renewal.md";
        try (McpSyncClient client = McpClients.connect("http://127.0.0.1:" + port, ann())) {
            String version = ok(client, "read_note", Map.of("path", note)).path("version").asText();
            Map<String, Map<String, Object>> operations = new LinkedHashMap<>();
            operations.put("replace_section", Map.of("section", "Force a renewal", "content", "Renew with cmctl."));
            operations.put("insert_before_section", Map.of("section", "Check expiry", "content", "Before expiry."));
            operations.put("insert_after_section", Map.of("section", "Check expiry", "content", "After expiry."));
            operations.put("append", Map.of("content", "Appended at the end."));
            operations.put("prepend", Map.of("content", "Prepended after the front matter."));
            operations.put("find_replace", Map.of("find", "alert fires 14 days", "replace", "alert fires 21 days"));
            operations.put("set_front_matter", Map.of("field", "owner", "value", "platform-team"));
            operations.put("remove_front_matter", Map.of("field", "tags"));
            operations.put("replace", Map.of("content", "# Renewal\n\nReplaced whole.\n"));
            Map<String, List<String>> expected = Map.of(
                    "replace_section", List.of("+Renew with cmctl.", "-After fixing the cause"),
                    "insert_before_section", List.of("+Before expiry."),
                    "insert_after_section", List.of("+After expiry."),
                    "append", List.of("+Appended at the end."),
                    "prepend", List.of("+Prepended after the front matter."),
                    "find_replace", List.of(
                            "+output, means renewal failed. Our `CertManagerCertExpirySoon` alert fires 21 days",
                            "-output, means renewal failed. Our `CertManagerCertExpirySoon` alert fires 14 days"),
                    "set_front_matter", List.of("+owner: platform-team"),
                    "remove_front_matter", List.of("-tags: [runbook, tls, cert-manager, letsencrypt]"),
                    "replace", List.of("+Replaced whole.", "-# Runbook: TLS certificate renewal"));
            for (var op : operations.entrySet()) {
                Map<String, Object> args = new HashMap<>(op.getValue());
                args.putAll(Map.of("path", note, "operation", op.getKey(), "base_version", version,
                        "message", op.getKey()));
                JsonNode draft = ok(client, "edit_note", args);
                assertThat(draft.path("status").asText()).as(op.getKey()).isEqualTo("open");
                JsonNode status = ok(client, "draft_status", Map.of("draft_id", draft.path("draft_id").asText()));
                assertThat(status.path("paths").toString()).as(op.getKey()).contains(note);
                assertThat(status.path("diff").get(0).path("diff").asText()).as(op.getKey())
                        .contains(expected.get(op.getKey()));
            }
            JsonNode deleted = ok(client, "delete_note", Map.of("path", note, "base_version", version));
            JsonNode status = ok(client, "draft_status", Map.of("draft_id", deleted.path("draft_id").asText()));
            assertThat(status.path("diff").get(0).path("diff").asText())
                    .contains("-# Runbook: TLS certificate renewal", "-cmctl renew grafana-tls -n monitoring");
        }
    }

    private static JsonNode ok(McpSyncClient client, String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.isError()).as(tool + ": " + McpClients.text(r)).isFalse();
        return JSON.readTree(McpClients.text(r));
    }
}
