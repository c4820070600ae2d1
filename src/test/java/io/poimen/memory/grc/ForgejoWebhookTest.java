package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

/**
 * Webhook security and de-duplication: each refusal has its status and requests no sync; a delivery id, and the
 * commit a vault change names, is handled once.
 */
class ForgejoWebhookTest extends GrcTestSupport {

    private String mainHead() throws Exception {
        try (Git remote = Git.open(REMOTE.toFile())) {
            return remote.getRepository().resolve("refs/heads/main").getName();
        }
    }

    private long requests() throws Exception {
        return syncStatus().path("requests").asLong();
    }

    @Test
    void aWrongSignatureIsRefusedWith401() throws Exception {
        long before = requests();
        String body = pushPayload("refs/heads/main", "0".repeat(40), mainHead());
        ResponseEntity<String> r = webhook("push", UUID.randomUUID().toString(), body,
                signed(body.replace("Update notes", "Tampered notes")));
        assertThat(r.getStatusCode().value()).isEqualTo(401);
        assertThat(json(r).path("error").asText()).isEqualTo("unauthorized");
        assertThat(requests()).isEqualTo(before);
    }

    @Test
    void aSignatureWithAnotherSecretIsRefusedWith401() throws Exception {
        long before = requests();
        String body = pushPayload("refs/heads/main", "0".repeat(40), mainHead());
        String forged = WebhookSignature.sign("not-the-secret", body.getBytes());
        ResponseEntity<String> r = webhook("push", UUID.randomUUID().toString(), body,
                h -> h.set("X-Forgejo-Signature", forged));
        assertThat(r.getStatusCode().value()).isEqualTo(401);
        assertThat(requests()).isEqualTo(before);
    }

    @Test
    void aMissingSignatureIsRefusedWith401() throws Exception {
        long before = requests();
        String body = pushPayload("refs/heads/main", "0".repeat(40), mainHead());
        ResponseEntity<String> r = webhook("push", UUID.randomUUID().toString(), body, h -> { });
        assertThat(r.getStatusCode().value()).isEqualTo(401);
        assertThat(json(r).path("message").asText()).contains("X-Forgejo-Signature");
        assertThat(requests()).isEqualTo(before);
    }

    @Test
    void theGiteaSignatureHeaderAloneIsAccepted() throws Exception {
        String body = pullRequestPayload("opened", 41, false, "edit/rock/x-20250101000000", null);
        String signature = WebhookSignature.sign(SECRET, body.getBytes());
        ResponseEntity<String> r = webhook("pull_request", UUID.randomUUID().toString(), body,
                h -> h.set("X-Gitea-Signature", signature));
        assertThat(r.getStatusCode().value()).isEqualTo(202);
        assertThat(json(r).path("status").asText()).isEqualTo("ignored");
    }

    @Test
    void aDeliveryIdOrEventLongerThanItsColumnIsA400AndNothingIsRecorded() throws Exception {
        long before = requests();
        String body = pushPayload("refs/heads/main", "0".repeat(40), randomCommitId());
        for (String[] headers : new String[][] {{"push", "d".repeat(129)}, {"p".repeat(65), "d-1"}
                }) {
            ResponseEntity<String> r = webhook(headers[0], headers[1], body, signed(body));
            assertThat(r.getStatusCode().value()).as(headers[0].length() + "/" + headers[1].length()).isEqualTo(400);
            assertThat(json(r).path("error").asText()).isEqualTo("bad_request");
            assertThat(json(r).path("message").asText()).contains("X-Forgejo-Delivery");
        }
        assertThat(requests()).as("no sync was requested").isEqualTo(before);
        String delivery = "d".repeat(128);
        assertThat(webhook("push", delivery, body, signed(body)).getStatusCode().value()).as("128 fit").isEqualTo(202);
    }

    @Test
    void malformedJsonIsRefusedWith400AndIsNotRecordedAsDelivered() throws Exception {
        long before = requests();
        String body = "{\"ref\": \"refs/heads/main\", \"after\": ";
        String delivery = UUID.randomUUID().toString();
        ResponseEntity<String> r = webhook("push", delivery, body, signed(body));
        assertThat(r.getStatusCode().value()).isEqualTo(400);
        assertThat(json(r).path("error").asText()).isEqualTo("bad_request");
        assertThat(requests()).isEqualTo(before);
        // the same delivery id with a good body is still handled: the bad one was not recorded
        String good = pushPayload("refs/heads/develop", "0".repeat(40), "1".repeat(40));
        assertThat(json(webhook("push", delivery, good, signed(good))).path("status").asText()).isEqualTo("ignored");
    }

    @Test
    void aReplayedDeliveryAnswersDuplicateAndDoesNothing() throws Exception {
        String head = pushToMain("projects/poimen/webhook-replay/" + UUID.randomUUID() + ".md", "# Replay\n",
                "Add a note");
        String body = pushPayload("refs/heads/main", "0".repeat(40), head);
        String delivery = UUID.randomUUID().toString();
        long before = requests();
        ResponseEntity<String> first = webhook("push", delivery, body, signed(body));
        assertThat(first.getStatusCode().value()).isEqualTo(202);
        assertThat(json(first).path("status").asText()).isEqualTo("sync_requested");
        assertThat(requests()).isEqualTo(before + 1);

        ResponseEntity<String> replay = webhook("push", delivery, body, signed(body));
        assertThat(replay.getStatusCode().value()).isEqualTo(200);
        assertThat(json(replay).path("status").asText()).isEqualTo("duplicate");
        assertThat(requests()).as("the replay requested no sync").isEqualTo(before + 1);
        awaitSyncedTo(head);
    }

    @Test
    void aCapturedBodySentAgainUnderANewDeliveryIdIsADuplicateOfItsCommit() throws Exception {
        String head = pushToMain("projects/poimen/webhook-replay/" + UUID.randomUUID() + ".md", "# Captured\n",
                "Add a note");
        String body = pushPayload("refs/heads/main", "0".repeat(40), head);
        long before = requests();
        ResponseEntity<String> first = webhook("push", UUID.randomUUID().toString(), body, signed(body));
        assertThat(json(first).path("status").asText()).isEqualTo("sync_requested");
        assertThat(requests()).isEqualTo(before + 1);
        for (int i = 0; i < 3; i++) {
            ResponseEntity<String> replay = webhook("push", UUID.randomUUID().toString(), body, signed(body));
            assertThat(replay.getStatusCode().value()).as(replay.getBody()).isEqualTo(200);
            assertThat(json(replay).path("status").asText()).isEqualTo("duplicate");
        }
        // the same commit announced as a merged pull request's merge commit: handled already
        String merged = pullRequestPayload("closed", 77, true, "edit/rock/z-20250101000000", head);
        ResponseEntity<String> pr = webhook("pull_request", UUID.randomUUID().toString(), merged, signed(merged));
        assertThat(json(pr).path("status").asText()).isEqualTo("duplicate");
        assertThat(requests()).as("one sync for one commit").isEqualTo(before + 1);
        awaitSyncedTo(head);

        String next = pushToMain("projects/poimen/webhook-replay/" + UUID.randomUUID() + ".md", "# Next\n",
                "Add another note");
        String nextBody = pushPayload("refs/heads/main", head, next);
        assertThat(json(webhook("push", UUID.randomUUID().toString(), nextBody, signed(nextBody))).path("status")
                .asText()).as("a new commit").isEqualTo("sync_requested");
        assertThat(requests()).isEqualTo(before + 2);
        awaitSyncedTo(next);
    }

    @Test
    void aMergedPullRequestIsHandledOncePerMergeCommitAndItsPushIsADuplicate() throws Exception {
        String mergeCommit = pushToMain("projects/poimen/webhook-replay/" + UUID.randomUUID() + ".md", "# Merged\n",
                "Merge pull request");
        String merged = pullRequestPayload("closed", 78, true, "edit/rock/m-20250101000000", mergeCommit);
        long before = requests();
        assertThat(json(webhook("pull_request", UUID.randomUUID().toString(), merged, signed(merged))).path("status")
                .asText()).isEqualTo("sync_requested");
        ResponseEntity<String> again = webhook("pull_request", UUID.randomUUID().toString(), merged, signed(merged));
        assertThat(again.getStatusCode().value()).isEqualTo(200);
        assertThat(json(again).path("status").asText()).isEqualTo("duplicate");
        String push = pushPayload("refs/heads/main", "0".repeat(40), mergeCommit);
        assertThat(json(webhook("push", UUID.randomUUID().toString(), push, signed(push))).path("status").asText())
                .as("the push of the merge commit").isEqualTo("duplicate");
        assertThat(requests()).isEqualTo(before + 1);
        awaitSyncedTo(mergeCommit);
    }

    static String randomCommitId() {
        return (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "").substring(0, 40);
    }

    @Test
    void otherEventsAreAcknowledgedAndIgnored() throws Exception {
        long before = requests();
        String issue = "{\"action\":\"opened\",\"number\":3,\"issue\":{\"id\":3,\"number\":3,\"title\":\"Typo\"}}";
        String otherBranch = pushPayload("refs/heads/develop", "0".repeat(40), "1".repeat(40));
        String unmerged = pullRequestPayload("closed", 42, false, "edit/rock/y-20250101000000", null);
        for (String[] event : new String[][] {{"issues", issue}, {"push", otherBranch}, {"pull_request", unmerged}}) {
            ResponseEntity<String> r = webhook(event[0], UUID.randomUUID().toString(), event[1], signed(event[1]));
            JsonNode answer = json(r);
            assertThat(r.getStatusCode().is2xxSuccessful()).as(event[0]).isTrue();
            assertThat(answer.path("status").asText()).as(event[0]).isEqualTo("ignored");
        }
        assertThat(requests()).isEqualTo(before);
    }
}
