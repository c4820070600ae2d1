package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A pull that cannot apply keeps the index and the working copy as they are, and reports the error. */
class VaultSyncFailureTest extends GrcTestSupport {
    static final String NOTE = "projects/poimen/runbooks/node-drain.md";

    @Autowired LexicalIndex lexical;

    private void pushWebhook(String after) {
        String body = pushPayload("refs/heads/main", "0".repeat(40), after);
        assertThat(webhook("push", UUID.randomUUID().toString(), body, signed(body)).getStatusCode().value())
                .isEqualTo(202);
    }

    @Test
    void localEditsInTheWayOfAPullAreReportedAndNothingIsLost() throws Exception {
        Path file = VAULT.resolve(NOTE);
        String committed = Files.readString(file);
        String localEdit = committed + "\nA local edit nobody committed: kestrelwise.\n";
        Files.writeString(file, localEdit);
        String lastCommit = syncStatus().path("last_commit").asText(null);
        long runs = syncStatus().path("runs").asLong();

        String remoteHead = pushToMain(NOTE, committed + "\nA reviewed change: marmorilla.\n", "Reviewed change");
        pushWebhook(remoteHead);
        awaitRuns(runs + 1);

        JsonNode status = syncStatus();
        assertThat(status.path("errors")).isNotEmpty();
        assertThat(status.path("errors").get(status.path("errors").size() - 1).path("message").asText())
                .isNotBlank();
        assertThat(status.path("last_commit").asText(null)).isEqualTo(lastCommit);
        assertThat(Files.readString(file)).as("the local edit is kept").isEqualTo(localEdit);
        try (Git vault = Git.open(VAULT.toFile())) {
            assertThat(vault.getRepository().resolve("HEAD").getName()).isNotEqualTo(remoteHead);
        }
        assertThat(lexical.search("marmorilla", SearchScope.all(), 3)).as("the index keeps serving the last sync")
                .isEmpty();

        // once the working copy is clean again, the next sync catches up and clears the errors (the next push: the
        // commit already announced is a duplicate, its failed sync is retried by the poll timer)
        Files.writeString(file, committed);
        String next = nextChange();
        pushWebhook(next);
        awaitSyncedTo(next);
        assertThat(syncStatus().path("errors")).isEmpty();
        assertThat(lexical.search("marmorilla", SearchScope.all(), 3)).isNotEmpty();
    }

    @Test
    void aDivergedWorkingCopyIsNotMergedOrReset() throws Exception {
        String side = "projects/poimen/runbooks/certificate-renewal.md";
        Path file = VAULT.resolve(side);
        String original = Files.readString(file);
        String localCommit;
        String before;
        try (Git vault = Git.open(VAULT.toFile())) {
            before = vault.getRepository().resolve("HEAD").getName();
            Files.writeString(file, original + "\nCommitted only in the hub's copy.\n");
            vault.add().addFilepattern(side).call();
            localCommit = vault.commit().setMessage("local").setAuthor("Ops", "ops@example.org")
                    .setCommitter("Ops", "ops@example.org").call().getName();
        }
        long runs = syncStatus().path("runs").asLong();
        String remoteHead = pushToMain("projects/poimen/runbooks/postgres-failover.md",
                "# Failover\n\nDiverging change.\n", "Diverge");
        pushWebhook(remoteHead);
        awaitRuns(runs + 1);
        assertThat(syncStatus().path("errors")).isNotEmpty();
        try (Git vault = Git.open(VAULT.toFile())) {
            assertThat(vault.getRepository().resolve("HEAD").getName()).as("no merge commit, no reset")
                    .isEqualTo(localCommit);
            // put the copy back the way the other tests expect it: drop the local commit by hand
            vault.reset().setMode(org.eclipse.jgit.api.ResetCommand.ResetType.HARD).setRef(before).call();
        }
        String next = nextChange();
        pushWebhook(next);
        awaitSyncedTo(next);
        assertThat(syncStatus().path("errors")).isEmpty();
    }

    /** Another commit on main, so the next webhook names a commit not announced before. */
    private static String nextChange() throws Exception {
        return pushToMain("projects/poimen/sync-catch-up/" + UUID.randomUUID() + ".md", "# Catch up\n",
                "Next change");
    }
}
