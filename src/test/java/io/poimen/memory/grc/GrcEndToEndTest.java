package io.poimen.memory.grc;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.ingest.CountingEmbeddingModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.MergeCommand;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ResponseEntity;

/** Draft → branch and commit in the remote → pull request → merge → signed webhook → searchable, incrementally. */
class GrcEndToEndTest extends GrcTestSupport {
    static final String NOTE = "projects/poimen/tools/kubectl.md";

    @Autowired CountingEmbeddingModel model;
    @Autowired NoteStore notes;

    @BeforeEach
    void forgejoUp() {
        FORGEJO.resetAll();
        pullRequestsOpenAs(FORGEJO, 7);
    }

    @Test
    void aDraftBecomesAPullRequestAndAfterTheMergeItsTextIsSearchable() throws Exception {
        String before = Files.readString(VAULT.resolve(NOTE));
        String edited = before + "\n## Quokkaflux flag\n\nThe quokkaflux option prints zanzibar diagnostics for "
                + "every pod in the namespace.\n";
        String request = JSON.createObjectNode().put("document_path", NOTE).put("content", edited)
                .put("message", "Document the quokkaflux flag").toString();

        ResponseEntity<String> created = postJson("/memory/grc/draft", request);

        assertThat(created.getStatusCode().value()).as(created.getBody()).isEqualTo(201);
        JsonNode answer = json(created);
        String branch = answer.path("branch").asText();
        assertThat(branch).matches("edit/rock/kubectl-\\d{14}-[0-9a-f]{8}");
        assertThat(answer.path("pr_number").asInt()).isEqualTo(7);
        assertThat(answer.path("pr_url").asText()).isEqualTo("http://forgejo.test/team/vault/pulls/7");
        assertThat(answer.path("draft_id").asText()).isNotBlank();

        // the branch and its commit are in the remote, authored by the caller, on top of main
        try (Git remote = Git.open(REMOTE.toFile()); RevWalk walk = new RevWalk(remote.getRepository())) {
            Repository repo = remote.getRepository();
            ObjectId tip = repo.resolve("refs/heads/" + branch);
            assertThat(tip).as("branch pushed").isNotNull();
            RevCommit commit = walk.parseCommit(tip);
            assertThat(commit.getAuthorIdent().getName()).isEqualTo("Rock Lee");
            assertThat(commit.getAuthorIdent().getEmailAddress()).isEqualTo("rock@example.org");
            assertThat(commit.getFullMessage()).startsWith("Document the quokkaflux flag");
            assertThat(commit.getParent(0).getId()).isEqualTo(repo.resolve("refs/heads/main"));
            try (TreeWalk tw = TreeWalk.forPath(repo, NOTE, commit.getTree())) {
                assertThat(new String(repo.open(tw.getObjectId(0)).getBytes(), StandardCharsets.UTF_8))
                        .isEqualTo(edited);
            }
        }
        // the pull request was asked for with the right body and token
        FORGEJO.verify(1, postRequestedFor(urlPathEqualTo(PULLS))
                .withHeader("Authorization", equalTo("token " + TOKEN))
                .withRequestBody(matchingJsonPath("$.head", equalTo(branch)))
                .withRequestBody(matchingJsonPath("$.base", equalTo("main")))
                .withRequestBody(matchingJsonPath("$.title", equalTo("Document the quokkaflux flag")))
                .withRequestBody(matchingJsonPath("$.body",
                        com.github.tomakehurst.wiremock.client.WireMock.containing(NOTE))));
        assertThat(Files.readString(VAULT.resolve(NOTE))).as("the vault is untouched until the merge")
                .isEqualTo(before);

        // a reviewer merges the pull request in Forgejo
        String merged;
        try (Git reviewer = otherClone()) {
            reviewer.fetch().setRemote("origin").setRefSpecs("+refs/heads/" + branch + ":refs/remotes/origin/pr").call();
            merged = reviewer.merge().include(reviewer.getRepository().resolve("refs/remotes/origin/pr"))
                    .setFastForward(MergeCommand.FastForwardMode.NO_FF)
                    .setMessage("Merge pull request 'Document the quokkaflux flag' (#7)").call()
                    .getNewHead().getName();
            reviewer.push().setRemote("origin").add("main").call();
        }
        model.reset();
        String payload = pullRequestPayload("closed", 7, true, branch, merged);
        ResponseEntity<String> hook = webhook("pull_request", UUID.randomUUID().toString(), payload, signed(payload));
        assertThat(hook.getStatusCode().value()).as(hook.getBody()).isEqualTo(202);
        assertThat(json(hook).path("status").asText()).isEqualTo("sync_requested");

        awaitSyncedTo(merged);
        int embedded = model.texts(); // ingest's model: the query route embeds with its own
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode results = json(postJson("/memory/query",
                    "{\"project\":\"poimen\",\"query\":\"quokkaflux zanzibar diagnostics\"}")).path("results");
            assertThat(results).isNotEmpty();
            assertThat(results.get(0).path("path").asText()).isEqualTo(NOTE);
            assertThat(results.get(0).path("text").asText()).contains("quokkaflux");
        });
        assertThat(Files.readString(VAULT.resolve(NOTE))).isEqualTo(edited);
        long noteChunks = notes.allChunks().stream().filter(c -> c.path().equals(NOTE)).count();
        assertThat(embedded).as("only the edited note was re-embedded").isEqualTo((int) noteChunks);
        JsonNode status = syncStatus();
        assertThat(status.path("files_changed")).hasSize(1);
        assertThat(status.path("files_changed").get(0).path("path").asText()).isEqualTo(NOTE);
        assertThat(status.path("files_changed").get(0).path("change").asText()).isEqualTo("modified");
        assertThat(status.path("errors")).isEmpty();
    }

    @Test
    void pathsOutsideProjectsAndSharedOrDifferingOnlyInCaseAreRefused() throws Exception {
        for (String path : new String[] {"README.md", "policies/x.md", "Projects/poimen/tools/kubectl.md"}) {
            ResponseEntity<String> r = postJson("/memory/grc/draft", JSON.createObjectNode()
                    .put("document_path", path).put("content", "# x\n").put("message", "m").toString());
            assertThat(r.getStatusCode().value()).as(path).isEqualTo(400);
            assertThat(JSON.readTree(r.getBody()).path("error").asText()).isEqualTo("bad_request");
        }
        for (String path : new String[] {"projects/poimen/tools/Kubectl.md", "projects/poimen/Tools/new-note.md"}) {
            ResponseEntity<String> r = postJson("/memory/grc/draft", JSON.createObjectNode()
                    .put("document_path", path).put("content", "# x\n").put("message", "m").toString());
            assertThat(r.getStatusCode().value()).as(path).isEqualTo(409);
            assertThat(JSON.readTree(r.getBody()).path("error").asText()).isEqualTo("case_clash");
        }
        // a twin of a project folder is another project, one without a policy: nobody may write there
        ResponseEntity<String> twin = postJson("/memory/grc/draft", JSON.createObjectNode()
                .put("document_path", "projects/POIMEN/x.md").put("content", "# x\n").put("message", "m").toString());
        assertThat(twin.getStatusCode().value()).as(twin.getBody()).isEqualTo(403);
        assertThat(JSON.readTree(twin.getBody()).path("error").asText()).isEqualTo("forbidden");
        FORGEJO.verify(0, postRequestedFor(urlPathEqualTo(PULLS)));
    }

    @Test
    void twoDraftsOfSameNamedNotesInTheSameSecondBothSucceed() throws Exception {
        String[] branches = new String[2];
        String[] paths = {"projects/poimen/memories/twin.md", "projects/poimen/runbooks/twin.md"};
        for (int i = 0; i < 2; i++) {
            ResponseEntity<String> r = postJson("/memory/grc/draft", JSON.createObjectNode()
                    .put("document_path", paths[i]).put("content", "# twin " + i + "\n").put("message", "twin")
                    .toString());
            assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(201); // Forgejo answers: delivered at once
            branches[i] = JSON.readTree(r.getBody()).path("branch").asText();
        }
        assertThat(branches[0]).isNotEqualTo(branches[1]).startsWith("edit/rock/twin-");
    }
}
