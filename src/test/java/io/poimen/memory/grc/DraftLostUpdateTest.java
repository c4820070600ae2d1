package io.poimen.memory.grc;

import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

/**
 * No lost update with Forgejo as review host: a note changed on the remote's main after the editor read it (the hub
 * has not synced yet) is re-applied at delivery with a three-way merge. Changes on other lines are both in the
 * pushed branch; a change on the same lines makes the draft {@code conflict}, its branch the edit on the commit it
 * was made from (so the pull request shows the conflict), never a branch that reverts the teammate's change.
 */
class DraftLostUpdateTest extends GrcTestSupport {
    static final String NOTE = "projects/poimen/runbooks/node-drain.md";
    static final String INTRO = "Use this runbook for k3s upgrades, kernel updates and hardware work on `nuc-01`,";
    static final String TROUBLE = "A node that does not come back `Ready` within 10 minutes: check";

    @BeforeEach
    void forgejoUp() {
        FORGEJO.resetAll();
        pullRequestsOpenAs(FORGEJO, 61);
    }

    @Test
    void aChangePushedToMainAfterTheNoteWasReadIsKeptOrTheDraftIsAConflictNeverReverted() throws Exception {
        ResponseEntity<String> file = http.getForEntity("/memory/vault/file?path=" + NOTE, String.class);
        assertThat(file.getStatusCode().value()).as(file.getBody()).isEqualTo(200);
        String text = json(file).path("content").asText();
        String base = json(file).path("version").asText();
        assertThat(text).contains(INTRO, TROUBLE);
        String madeOn;
        try (Git vault = Git.open(VAULT.toFile())) {
            madeOn = vault.getRepository().resolve("refs/heads/main").name();
        }
        String mates = "Use this runbook for k3s upgrades, firmware updates and hardware work on `nuc-01`,";
        String main = pushToMain(NOTE, text.replace(INTRO, mates), "Firmware too");

        // another section: the pushed branch holds both changes
        String later = "A node that is not `Ready` again within 15 minutes: check";
        JsonNode clean = json(created(draft(text.replace(TROUBLE, later), base, "Wait 15 minutes")));
        assertThat(onRemote(clean.path("branch").asText())).contains(mates, later).doesNotContain(INTRO, TROUBLE);
        assertThat(clean.path("status").asText()).isEqualTo("open");
        assertThat(clean.path("base_versions").path(NOTE).asText()).isEqualTo(base);
        assertThat(parentOnRemote(clean.path("branch").asText())).isEqualTo(main);

        // the same line: conflict; the branch is the edit on the commit it was made from, the teammate's line kept
        String mine = "Use this runbook for k3s upgrades and hardware work on `nuc-01`,";
        JsonNode conflict = json(created(draft(text.replace(INTRO, mine), base, "No kernel updates")));
        assertThat(conflict.path("status").asText()).isEqualTo("conflict");
        String branch = conflict.path("branch").asText();
        assertThat(parentOnRemote(branch)).isEqualTo(madeOn).isNotEqualTo(main);
        assertThat(onRemote("main")).contains(mates);
        FORGEJO.verify(postRequestedFor(urlPathEqualTo(PULLS)).withRequestBody(containing("Conflict")));
        JsonNode stored = json(http.getForEntity("/memory/grc/drafts/" + conflict.path("draft_id").asText(),
                String.class));
        assertThat(stored.path("conflicts").get(0).path("path").asText()).isEqualTo(NOTE);
        assertThat(stored.path("conflicts").get(0).path("text").asText()).contains("<<<<<<<", mates, mine);
    }

    private ResponseEntity<String> created(String body) {
        ResponseEntity<String> r = postJson("/memory/grc/draft", body);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(201);
        return r;
    }

    private static String draft(String content, String base, String message) {
        ObjectNode body = JSON.createObjectNode().put("document_path", NOTE).put("content", content)
                .put("message", message);
        body.putObject("base_versions").put(NOTE, base);
        return body.toString();
    }

    private static String onRemote(String branch) throws Exception {
        try (Git git = Git.open(REMOTE.toFile()); RevWalk walk = new RevWalk(git.getRepository())) {
            Repository repo = git.getRepository();
            RevCommit tip = walk.parseCommit(repo.resolve("refs/heads/" + branch));
            try (TreeWalk tw = TreeWalk.forPath(repo, NOTE, tip.getTree())) {
                return new String(repo.open(tw.getObjectId(0)).getBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    private static String parentOnRemote(String branch) throws Exception {
        try (Git git = Git.open(REMOTE.toFile()); RevWalk walk = new RevWalk(git.getRepository())) {
            ObjectId tip = git.getRepository().resolve("refs/heads/" + branch);
            RevCommit c = walk.parseCommit(tip);
            assertThat(c.getParentCount()).isEqualTo(1);
            return c.getParent(0).name();
        }
    }
}
