package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.grc.edit.NoteOperation;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.testsupport.TestH2;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The writer's pruning of draft branches on the hub as review host: the branch of a draft that retention deleted
 * goes once it is older than {@link LocalReview#ORPHAN_AGE} (younger, its draft may be being stored right now); an
 * open draft's branch stays whatever its age, and a branch under {@code edit/} that names no draft is not touched.
 */
class DraftBranchPruneTest {
    @TempDir
    Path tmp;

    @Test
    void theBranchOfADraftRetentionDeletedGoesOnceItIsOldAnOpenDraftsAndAForeignBranchStay() throws Exception {
        var db = TestH2.migrated("prune");
        DraftStore drafts = new DraftStore(db);
        DraftInterleavingsTest.Hub hub = DraftInterleavingsTest.hub(drafts, tmp, Clock.systemUTC(),
                "# Alpha\n\nfirst\n", "# Beta\n\nsecond\n");
        String alpha = DraftInterleavingsTest.NOTES.get(0);
        Draft gone = submitted(hub, alpha, "gone");
        Draft open = submitted(hub, alpha, "open");
        try (Git git = Git.open(hub.root().toFile())) {
            git.branchCreate().setName(BranchNames.PREFIX + "someone/by-hand").call();
        }
        new JdbcTemplate(db).update("delete from grc_drafts where id = ?", gone.id());

        assertThat(hub.local().prune()).as("a young branch without its draft may be being stored").isZero();
        assertThat(branches(hub.root())).contains(gone.branch(), open.branch());

        Clock later = Clock.offset(Clock.systemUTC(), LocalReview.ORPHAN_AGE.plus(Duration.ofMinutes(1)));
        LocalReview writer = new LocalReview(hub.vault(), drafts, hub.git(), later);
        assertThat(writer.prune()).isEqualTo(1);
        assertThat(branches(hub.root())).doesNotContain(gone.branch())
                .contains(open.branch(), BranchNames.PREFIX + "someone/by-hand");
        assertThat(drafts.find(open.id()).orElseThrow().status()).isEqualTo(DraftStatus.OPEN);
    }

    private static Draft submitted(DraftInterleavingsTest.Hub hub, String path, String line) {
        DraftSubmission.Outcome outcome = hub.submission().submit(Caller.LOCAL_OPERATOR, "t", new DraftInput(
                List.of(new NoteOperation.Append(path, line)), "[]", Map.of(), "append " + line));
        assertThat(outcome.draft()).as(String.valueOf(outcome.conflicts())).isNotNull();
        return outcome.draft();
    }

    private static List<String> branches(Path root) throws Exception {
        try (Git git = Git.open(root.toFile())) {
            return git.getRepository().getRefDatabase().getRefsByPrefix(Constants.R_HEADS).stream()
                    .map(r -> r.getName().substring(Constants.R_HEADS.length())).toList();
        }
    }
}
