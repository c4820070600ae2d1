package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.security.Caller;
import io.poimen.memory.api.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Branch names, request checks, review state and retry backoff. */
class GrcUnitsTest {
    static final Instant AT = Instant.parse("2025-05-01T10:11:12Z");

    @Test
    void branchNamesUseTheMailLocalPartTheNoteNameAndAUtcStamp() {
        Caller rock = new Caller("sub-1", "Rock Lee", "Rock.Lee@example.org", List.of(), List.of(), List.of(), false);
        assertThat(BranchNames.of(rock, "vault/runbooks/Deploy Steps.md", AT))
                .isEqualTo("edit/rock-lee/deploy-steps-20250501101112");
        Caller noMail = new Caller("sub-2", "Zoë Ångström", null, List.of(), List.of(), List.of(), false);
        assertThat(BranchNames.of(noMail, "a/Ünïcode.md", AT)).isEqualTo("edit/zoe-angstrom/unicode-20250501101112");
        Caller bare = new Caller("c0ffee", null, null, List.of(), List.of(), List.of(), false);
        assertThat(BranchNames.of(bare, "a/***.md", AT)).isEqualTo("edit/c0ffee/note-20250501101112");
    }

    @Test
    void requestsOutsideTheVaultOrOverTheLimitsAreRefused() {
        assertThat(new DraftRequest(" projects/p/a.md ", "x", " msg ").validated())
                .isEqualTo(new DraftRequest("projects/p/a.md", "x", "msg"));
        for (String bad : List.of("../a.md", "p/../../a.md", "/a.md", "C:/a.md", "p\\a.md", "p//a.md", "p/a.txt",
                ".git/config.md", "p/./a.md")) {
            assertThatThrownBy(() -> new DraftRequest(bad, "x", "m").validated()).as(bad)
                    .isInstanceOf(ApiException.class).extracting(e -> ((ApiException) e).status()).isEqualTo(400);
        }
        assertThatThrownBy(() -> new DraftRequest("projects/p/a.md", "é".repeat(DraftRequest.MAX_CONTENT_BYTES / 2 + 1), "m")
                .validated()).extracting(e -> ((ApiException) e).status()).isEqualTo(413);
        assertThatThrownBy(() -> new DraftRequest("projects/p/a.md", "x", "").validated())
                .extracting(e -> ((ApiException) e).status()).isEqualTo(400);
        assertThatThrownBy(() -> new DraftRequest("projects/p/a.md", null, "m").validated())
                .extracting(e -> ((ApiException) e).status()).isEqualTo(400);
    }

    @Test
    void onlyNotesInsideAProjectOrSharedFolderAreAccepted() {
        for (String ok : List.of("projects/p/a.md", "projects/p/deep/er/a.md", "shared/a.md", "shared/skills/S/a.md")) {
            assertThat(new DraftRequest(ok, "x", "m").validated().documentPath()).isEqualTo(ok);
        }
        for (String bad : List.of("README.md", "policies/x.md", "Projects/poimen/a.md", "projects/a.md",
                "Shared/a.md", "SHARED/x/a.md", "other/projects/p/a.md", "projectsx/p/a.md")) {
            assertThatThrownBy(() -> new DraftRequest(bad, "x", "m").validated()).as(bad)
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.getMessage()).contains("inside a project");
                    });
        }
    }

    @Test
    void twoDraftsOfSameNamedNotesInOneSecondGetTheirOwnBranches() {
        Caller rock = new Caller("sub-1", "Rock Lee", "rock@example.org", List.of(), List.of(), List.of(), false);
        String a = BranchNames.of(rock, "projects/a/notes.md", AT, java.util.UUID.randomUUID().toString());
        String b = BranchNames.of(rock, "projects/b/notes.md", AT, java.util.UUID.randomUUID().toString());
        assertThat(a).isNotEqualTo(b).matches("edit/rock/notes-20250501101112-[0-9a-f]{8}");
        assertThat(b).matches("edit/rock/notes-20250501101112-[0-9a-f]{8}");
    }

    @Test
    void reviewStateTakesEachReviewersLatestVerdict() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertThat(ReviewState.of(json.readTree("[]"))).isEqualTo("none");
        assertThat(ReviewState.of(json.readTree("[{\"user\":{\"login\":\"a\"},\"state\":\"PENDING\"}]")))
                .isEqualTo("none");
        assertThat(ReviewState.of(json.readTree("[{\"user\":{\"login\":\"a\"},\"state\":\"COMMENT\"}]")))
                .isEqualTo("COMMENT");
        assertThat(ReviewState.of(json.readTree("""
                [{"user":{"login":"a"},"state":"APPROVED"},{"user":{"login":"a"},"state":"COMMENT"}]""")))
                .isEqualTo("APPROVED");
        assertThat(ReviewState.of(json.readTree("""
                [{"user":{"login":"a"},"state":"APPROVED"},{"user":{"login":"b"},"state":"REQUEST_CHANGES"}]""")))
                .isEqualTo("REQUEST_CHANGES");
        assertThat(ReviewState.of(json.readTree("""
                [{"user":{"login":"b"},"state":"REQUEST_CHANGES","dismissed":true},
                 {"user":{"login":"a"},"state":"APPROVED"}]"""))).isEqualTo("APPROVED");
    }

    @Test
    void backoffDoublesUpToTheMaximum() {
        ForgejoProperties.Delivery d = new ForgejoProperties.Delivery(Duration.ofSeconds(30), Duration.ofMinutes(5),
                Duration.ofMinutes(5), 50, 2, Duration.ofMillis(500), Duration.ofSeconds(15));
        assertThat(d.backoff(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(d.backoff(2)).isEqualTo(Duration.ofSeconds(60));
        assertThat(d.backoff(4)).isEqualTo(Duration.ofSeconds(240));
        assertThat(d.backoff(5)).isEqualTo(Duration.ofMinutes(5));
        assertThat(d.backoff(500)).isEqualTo(Duration.ofMinutes(5));
        assertThat(d.maxAttempts()).isEqualTo(50);
    }
}
