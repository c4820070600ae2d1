package io.poimen.memory.grc;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

/** Forgejo down during a draft: the draft is kept, retried, and delivered once, as exactly one pull request. */
class DraftRetryTest extends GrcTestSupport {

    private static String draftRequest(String path, String word) {
        return JSON.createObjectNode().put("document_path", path)
                .put("content", "# " + word + "\n\nA new note about " + word + ".\n")
                .put("message", "Add a note about " + word).toString();
    }

    private static String pr(int number, String head) {
        return "{\"id\":" + (100 + number) + ",\"number\":" + number + ",\"state\":\"open\",\"merged\":false,"
                + "\"html_url\":\"http://forgejo.test/team/vault/pulls/" + number + "\",\"head\":{\"ref\":\""
                + head + "\"},\"base\":{\"ref\":\"main\"}}";
    }

    private JsonNode storedDraft(String id) throws Exception {
        return json(http.getForEntity("/memory/grc/drafts/" + id, String.class));
    }

    private ResponseEntity<String> draftWhileForgejoIsDown(String path, String word) {
        FORGEJO.resetAll();
        FORGEJO.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(anyUrl())
                .willReturn(aResponse().withStatus(503).withBody("maintenance")));
        return postJson("/memory/grc/draft", draftRequest(path, word));
    }

    @Test
    void forgejoDownKeepsTheDraftPendingAndItIsDeliveredOnceForgejoIsBack() throws Exception {
        ResponseEntity<String> accepted = draftWhileForgejoIsDown("projects/poimen/memories/retry-note.md", "vexillum");
        assertThat(accepted.getStatusCode().value()).as(accepted.getBody()).isEqualTo(202);
        JsonNode answer = json(accepted);
        assertThat(answer.path("status").asText()).isEqualTo("pending");
        String id = answer.path("draft_id").asText();
        String branch = answer.path("branch").asText();
        JsonNode stored = storedDraft(id);
        assertThat(stored.path("last_error").asText()).contains("503");
        assertThat(stored.path("content").asText()).contains("vexillum");
        FORGEJO.verify(0, postRequestedFor(urlPathEqualTo(PULLS)));

        // create first, list last: until the list answers, no retry can get as far as creating
        FORGEJO.resetAll();
        FORGEJO.stubFor(post(urlPathEqualTo(PULLS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(pr(8, branch))));
        FORGEJO.stubFor(get(urlPathEqualTo(PULLS)).withQueryParam("state", equalTo("open")).willReturn(okJson("[]")));

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> "open".equals(storedDraft(id).path("status").asText()));
        assertThat(storedDraft(id).path("pr_number").asInt()).isEqualTo(8);
        FORGEJO.verify(1, postRequestedFor(urlPathEqualTo(PULLS)));
        FORGEJO.verify(1, postRequestedFor(urlPathEqualTo(PULLS)).withRequestBody(matchingJsonPath("$.head",
                equalTo(branch))));
        try (Git remote = Git.open(REMOTE.toFile())) {
            assertThat(remote.getRepository().resolve("refs/heads/" + branch)).isNotNull();
        }
    }

    @Test
    void anOpenPullRequestOfTheBranchIsReusedInsteadOfOpeningASecondOne() throws Exception {
        // the branch got pushed, then the hub lost the pull request answer (Forgejo down, or a restart)
        ResponseEntity<String> accepted = draftWhileForgejoIsDown("projects/poimen/memories/reuse-note.md", "ardillo");
        assertThat(accepted.getStatusCode().value()).isEqualTo(202);
        String id = json(accepted).path("draft_id").asText();
        String branch = json(accepted).path("branch").asText();

        FORGEJO.resetAll();
        FORGEJO.stubFor(post(urlPathEqualTo(PULLS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(pr(10, branch))));
        FORGEJO.stubFor(get(urlPathEqualTo(PULLS)).withQueryParam("state", equalTo("open"))
                .willReturn(okJson("[" + pr(5, "edit/someone/else-20250101000000") + "," + pr(9, branch) + "]")));

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> "open".equals(storedDraft(id).path("status").asText()));
        assertThat(storedDraft(id).path("pr_number").asInt()).isEqualTo(9);
        FORGEJO.verify(0, postRequestedFor(urlPathEqualTo(PULLS)));
    }

    @Test
    void invalidDraftsAreRefusedBeforeAnythingIsStored() throws Exception {
        FORGEJO.resetAll();
        String[][] cases = {
                {"../outside.md", "400"}, {"/etc/passwd.md", "400"}, {"projects/poimen/notes.txt", "400"},
                {"projects/./poimen/x.md", "400"}};
        for (String[] c : cases) {
            ResponseEntity<String> r = postJson("/memory/grc/draft", draftRequest(c[0], "x"));
            assertThat(r.getStatusCode().value()).as(c[0]).isEqualTo(Integer.parseInt(c[1]));
            assertThat(json(r).path("error").asText()).as(c[0]).isEqualTo("bad_request");
        }
        ResponseEntity<String> noMessage = postJson("/memory/grc/draft",
                "{\"document_path\":\"projects/poimen/a.md\",\"content\":\"x\",\"message\":\" \"}");
        assertThat(noMessage.getStatusCode().value()).isEqualTo(400);
        String huge = "x".repeat(DraftRequest.MAX_CONTENT_BYTES + 1);
        ResponseEntity<String> tooBig = postJson("/memory/grc/draft", JSON.createObjectNode()
                .put("document_path", "projects/poimen/a.md").put("content", huge).put("message", "big").toString());
        assertThat(tooBig.getStatusCode().value()).isEqualTo(413);
        assertThat(postJson("/memory/grc/draft", "{not json").getStatusCode().value()).isEqualTo(400);
        FORGEJO.verify(0, postRequestedFor(urlPathEqualTo(PULLS)));
    }

    @Test
    void statusReportsMergedAndTheReviewState() throws Exception {
        // the status is told only for a pull request the hub opened: a stored draft delivered as #12
        ResponseEntity<String> accepted = draftWhileForgejoIsDown("projects/poimen/memories/status-note.md", "quarrel");
        String id = json(accepted).path("draft_id").asText();
        String branch = json(accepted).path("branch").asText();
        FORGEJO.resetAll();
        FORGEJO.stubFor(post(urlPathEqualTo(PULLS)).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody(pr(12, branch))));
        FORGEJO.stubFor(get(urlPathEqualTo(PULLS)).withQueryParam("state", equalTo("open")).willReturn(okJson("[]")));
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> storedDraft(id).path("pr_number").asInt() == 12);

        FORGEJO.stubFor(get(urlPathEqualTo(PULLS + "/12")).willReturn(okJson(
                "{\"number\":12,\"state\":\"closed\",\"merged\":true,\"html_url\":\"http://forgejo.test/p/12\","
                        + "\"head\":{\"ref\":\"" + branch + "\"}}")));
        FORGEJO.stubFor(get(urlPathEqualTo(PULLS + "/12/reviews")).willReturn(okJson(
                "[{\"id\":1,\"user\":{\"login\":\"lead\"},\"state\":\"REQUEST_CHANGES\"},"
                        + "{\"id\":2,\"user\":{\"login\":\"lead\"},\"state\":\"APPROVED\"}]")));
        JsonNode status = json(http.getForEntity("/memory/grc/status?pr=12", String.class));
        assertThat(status.path("pr_number").asInt()).isEqualTo(12);
        assertThat(status.path("state").asText()).isEqualTo("merged");
        assertThat(status.path("merged").asBoolean()).isTrue();
        assertThat(status.path("review_state").asText()).isEqualTo("APPROVED");

        // a pull request the hub did not open is not told, whatever Forgejo knows of it
        FORGEJO.stubFor(get(urlPathEqualTo(PULLS + "/13")).willReturn(okJson(
                "{\"number\":13,\"state\":\"open\",\"merged\":false,\"head\":{\"ref\":\"secret-branch\"}}")));
        ResponseEntity<String> foreign = http.getForEntity("/memory/grc/status?pr=13", String.class);
        assertThat(foreign.getStatusCode().value()).isEqualTo(404);
        assertThat(foreign.getBody()).doesNotContain("secret-branch");
        assertThat(http.getForEntity("/memory/grc/status?pr=404", String.class).getStatusCode().value())
                .isEqualTo(404);
        assertThat(http.getForEntity("/memory/grc/status?pr=abc", String.class).getStatusCode().value())
                .isEqualTo(400);
    }
}
