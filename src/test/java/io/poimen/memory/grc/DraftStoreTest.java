package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.testsupport.TestPostgres;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The claims that keep a draft to one pull request on PostgreSQL (the store every replica shares): the request that
 * stored a draft claims it once, a retry claims it only when due or stuck, and a delivered draft is never due or
 * claimable again, however late a retry runs. And a draft reviewed on the hub is decided once, with its operations,
 * base versions and conflicts kept as written.
 */
class DraftStoreTest {
    static final Duration STUCK = Duration.ofMinutes(2);
    static DraftStore drafts;

    @BeforeAll
    static void database() {
        drafts = new DraftStore(TestPostgres.freshDatabase("draft_store"));
    }

    private static String stored(Instant at) {
        String id = UUID.randomUUID().toString();
        drafts.insert(new Draft(id, "rock", "Rock", "rock@example.org", "projects/p/n.md", "# N\n", "m", "edit/rock/n-" + id,
                DraftStatus.PENDING, 0, null, null, null, at.plus(STUCK), at, at));
        return id;
    }

    @Test
    void theStoringRequestClaimsANewDraftOnceAndARetryOnlyWhenItIsDueOrStuck() {
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String id = stored(t0);
        assertThat(drafts.due(t0, t0.minus(STUCK), 10)).doesNotContain(id);
        assertThat(drafts.claimNew(id, t0)).isTrue();
        assertThat(drafts.claimNew(id, t0)).as("a second first attempt").isFalse();
        assertThat(drafts.claimDue(id, t0.plusSeconds(1), t0.plusSeconds(1).minus(STUCK))).as("being delivered")
                .isFalse();

        drafts.attemptFailed(id, "forgejo down", t0.plusSeconds(30), t0.plusSeconds(1));
        assertThat(drafts.due(t0.plusSeconds(10), t0.plusSeconds(10).minus(STUCK), 10)).doesNotContain(id);
        assertThat(drafts.due(t0.plusSeconds(30), t0.plusSeconds(30).minus(STUCK), 10)).contains(id);
        assertThat(drafts.claimDue(id, t0.plusSeconds(30), t0.plusSeconds(30).minus(STUCK))).isTrue();
        assertThat(drafts.claimDue(id, t0.plusSeconds(31), t0.plusSeconds(31).minus(STUCK))).isFalse();
        // the replica delivering it died: claimed again once the delivering timeout has passed
        Instant later = t0.plusSeconds(30).plus(STUCK).plusSeconds(1);
        assertThat(drafts.due(later, later.minus(STUCK), 10)).contains(id);
        assertThat(drafts.claimDue(id, later, later.minus(STUCK))).isTrue();
        assertThat(drafts.find(id).orElseThrow().attempts()).isEqualTo(3);
    }

    @Test
    void aDeliveredDraftIsNeverDueNorClaimedAgainAndALateFailureDoesNotReopenIt() {
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String id = stored(t0);
        assertThat(drafts.claimNew(id, t0)).isTrue();
        drafts.delivered(id, 7, "http://forgejo.test/team/vault/pulls/7", t0.plusSeconds(1));
        // a failure reported afterwards by an attempt that overlapped (a dead replica's) changes nothing
        drafts.attemptFailed(id, "timeout", t0.plusSeconds(2), t0.plusSeconds(2));

        for (Instant at : List.of(t0.plusSeconds(3), t0.plus(STUCK).plusSeconds(60), t0.plus(Duration.ofDays(1)))) {
            assertThat(drafts.due(at, at.minus(STUCK), 10)).as("due at %s", at).doesNotContain(id);
            assertThat(drafts.claimDue(id, at, at.minus(STUCK))).as("claimed at %s", at).isFalse();
        }
        assertThat(drafts.claimNew(id, t0.plusSeconds(5))).isFalse();
        Draft d = drafts.find(id).orElseThrow();
        assertThat(d.status()).isEqualTo(DraftStatus.OPEN);
        assertThat(d.prNumber()).isEqualTo(7);
        assertThat(d.lastError()).isNull();
        assertThat(d.attempts()).isEqualTo(1);
    }

    private static String local(Instant at, String path) {
        String id = UUID.randomUUID().toString();
        DraftChanges changes = new DraftChanges(Map.of(path, "0123456789abcdef0123456789abcdef01234567"),
                Map.of(path, "# N\n\nold\n"), Map.of(path, "# N\n\nnew\n"), List.of(), Map.of(), List.of(),
                Map.of());
        drafts.insert(new Draft(id, "rock", "Rock", "rock@example.org", path, "", "m", "edit/rock/n-" + id,
                DraftStatus.OPEN, 0, null, null, null, null, at, at,
                new Draft.Edit(ReviewHost.LOCAL, "[{\"op\":\"append\"}]", changes, "abc", Map.of()),
                Draft.Review.NONE));
        return id;
    }

    @Test
    void aDraftReviewedOnTheHubIsDecidedOnceAndKeepsItsBaseVersionsAndConflicts() {
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String approved = local(t0, "projects/p/a.md");
        String rejected = local(t0.plusMillis(1), "projects/p/b.md");
        String conflicting = local(t0.plusMillis(2), "projects/p/c.md");
        assertThat(drafts.list(EnumSet.of(DraftStatus.OPEN), 500)).extracting(Draft::id)
                .contains(conflicting, rejected, approved);

        assertThat(drafts.approve(approved, "rita", "ok", t0.plusSeconds(1))).isTrue();
        assertThat(drafts.approve(approved, "sam", null, t0.plusSeconds(2))).as("decided once").isFalse();
        assertThat(drafts.reject(approved, "sam", "no", t0.plusSeconds(2))).isFalse();
        assertThat(drafts.mergeRequested(500)).contains(approved);
        drafts.merged(approved, "c0ffee", t0.plusSeconds(3));
        Draft merged = drafts.find(approved).orElseThrow();
        assertThat(merged.status()).isEqualTo(DraftStatus.MERGED);
        assertThat(merged.review().reviewer()).isEqualTo("rita");
        assertThat(merged.review().mergeCommit()).isEqualTo("c0ffee");
        assertThat(merged.edit().host()).isEqualTo(ReviewHost.LOCAL);
        assertThat(merged.edit().changes().baseVersions()).containsEntry("projects/p/a.md",
                "0123456789abcdef0123456789abcdef01234567");
        assertThat(drafts.mergeRequested(500)).doesNotContain(approved);

        assertThat(drafts.reject(rejected, "rita", "not now", t0.plusSeconds(1))).isTrue();
        assertThat(drafts.approve(rejected, "sam", null, t0.plusSeconds(2))).isFalse();
        assertThat(drafts.find(rejected).orElseThrow().status()).isEqualTo(DraftStatus.REJECTED);

        assertThat(drafts.approve(conflicting, "rita", null, t0.plusSeconds(1))).isTrue();
        drafts.conflicted(conflicting, Map.of("projects/p/c.md", new EditConflict("fedcba", "<<<<<<< x",
                "changed since")), t0.plusSeconds(2));
        Draft conflict = drafts.find(conflicting).orElseThrow();
        assertThat(conflict.status()).isEqualTo(DraftStatus.CONFLICT);
        assertThat(conflict.edit().conflicts().get("projects/p/c.md").currentVersion()).isEqualTo("fedcba");
        assertThat(conflict.lastError()).contains("projects/p/c.md");
        assertThat(drafts.mergeRequested(500)).doesNotContain(conflicting);
        drafts.merged(conflicting, "late", t0.plusSeconds(3));
        assertThat(drafts.find(conflicting).orElseThrow().status()).as("a conflict is never merged")
                .isEqualTo(DraftStatus.CONFLICT);
    }
}
