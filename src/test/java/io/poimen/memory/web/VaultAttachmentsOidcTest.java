package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.security.auth.TraceIds;
import io.poimen.memory.testsupport.OidcHubTestBase;
import io.poimen.memory.testsupport.PolicyTrace;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code GET /memory/vault/attachment} in oidc mode, with bearer tokens from the test issuer over HTTP: the folder's
 * read policy decides as for a note there, audited under the response's trace id; a caller who may not read the
 * folder gets exactly the answer of a missing file (status, type, body but for the path), and no probe logs a policy
 * ERROR or moves {@code poimen_policy_rejected}; an SVG gets its sandbox policy in place of the hub's.
 */
class VaultAttachmentsOidcTest extends OidcHubTestBase {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String MISSING = "projects/ml-training/runbooks/planted-diagram-nope.png";

    @Autowired JdbcTemplate jdbc;
    @Autowired MeterRegistry meters;

    HttpResponse<byte[]> attachment(String token, String path) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(uri("/memory/vault/attachment?path="
                + URLEncoder.encode(path, StandardCharsets.UTF_8)));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    List<Map<String, Object>> auditRows(HttpResponse<?> r) {
        return jdbc.queryForList("select resource_type, resource_name, action, decision from rbac_audit_log"
                + " where trace_id = ?", r.headers().firstValue(TraceIds.RESPONSE_HEADER).orElseThrow());
    }

    @Test
    void aReaderGetsTheFileAndACallerWhoMayNotReadTheFolderGetsTheAnswerOfAMissingOne() throws Exception {
        HttpResponse<byte[]> read = attachment(bob(), PLANTED_ATTACHMENT);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(read.body()).isEqualTo(plantedAttachment());
        assertThat(auditRows(read)).singleElement().isEqualTo(Map.of("resource_type", "project",
                "resource_name", "ml-training", "action", "read", "decision", "allow"));

        HttpResponse<byte[]> bobMissing = attachment(bob(), MISSING);
        assertThat(bobMissing.statusCode()).isEqualTo(404);
        String missingAnswer = text(bobMissing).replace(MISSING, "P");
        assertThat(missingAnswer).isEqualTo("{\"error\":\"not_found\",\"message\":\"no such attachment: P\"}");
        try (PolicyTrace trace = PolicyTrace.start(meters)) {
            for (String token : List.of(charlie(), dave(), nobody())) {
                for (String path : List.of(PLANTED_ATTACHMENT, MISSING, PLANTED_ATTACHMENT + "/x.png",
                        "projects/ml-training/runbooks/_access.yaml.png")) {
                    HttpResponse<byte[]> r = attachment(token, path);
                    assertThat(r.statusCode()).as(path).isEqualTo(404);
                    assertThat(r.headers().firstValue("Content-Type")).as(path)
                            .isEqualTo(bobMissing.headers().firstValue("Content-Type"));
                    assertThat(text(r).replace(path, "P")).as(path).isEqualTo(missingAnswer);
                    assertThat(text(r)).doesNotContain(PLANTED_TEXT);
                }
            }
            HttpResponse<byte[]> denied = attachment(charlie(), PLANTED_ATTACHMENT);
            assertThat(auditRows(denied)).as("audited like any read").singleElement().isEqualTo(Map.of(
                    "resource_type", "project", "resource_name", "ml-training", "action", "read", "decision", "deny"));
            assertThat(auditRows(attachment(charlie(), MISSING))).as("the same decision for a missing file")
                    .singleElement().isEqualTo(auditRows(denied).get(0));
            trace.assertNothingLeft();
        }
        HttpResponse<byte[]> anonymous = attachment(null, PLANTED_ATTACHMENT);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(anonymous.body()).path("error").asText()).isEqualTo("unauthorized");
    }

    /** A symbolic link out of the vault is not a vault file: a reader and a refused caller both get "missing". */
    @Test
    void aLinkOutOfTheVaultAnswersAsMissingToAReaderAndToACallerWhoMayNotRead(@TempDir Path outside)
            throws Exception {
        Files.write(outside.resolve("secret.png"), plantedAttachment());
        String link = "projects/ml-training/runbooks/escape-" + System.nanoTime() + ".png";
        Files.createSymbolicLink(VAULT.resolve(link), outside.resolve("secret.png"));
        try {
            for (String token : List.of(bob(), charlie())) {
                HttpResponse<byte[]> r = attachment(token, link);
                assertThat(r.statusCode()).isEqualTo(404);
                assertThat(text(r).replace(link, "P"))
                        .isEqualTo(text(attachment(token, MISSING)).replace(MISSING, "P"));
            }
        } finally {
            Files.delete(VAULT.resolve(link));
        }
    }

    @Test
    void anSvgIsServedUnderItsOwnSandboxPolicyInsteadOfTheHubs() throws Exception {
        String svg = "projects/poimen/attachments/flow-" + System.nanoTime() + ".svg";
        Files.writeString(VAULT.resolve(svg), "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script>"
                + "<rect width=\"10\" height=\"10\"/></svg>");
        try {
            HttpResponse<byte[]> r = attachment(charlie(), svg);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("image/svg+xml");
            assertThat(r.headers().allValues("Content-Security-Policy")).as("replaced, not merged")
                    .containsExactly(AttachmentType.SANDBOX);
            assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(r.headers().allValues("Cache-Control")).containsExactly("private, no-cache");
            assertThat(attachment(nobody(), svg).statusCode()).as("poimen is for platform and devops").isEqualTo(404);
        } finally {
            Files.delete(VAULT.resolve(svg));
        }
    }
}
