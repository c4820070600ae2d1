package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.api.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    void namesGitRefusesOrAReaderWouldMisreadAreRefusedNamingTheCharacterClass() {
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("projects/p/.GIT/a.md", "'.git' folder");
        refused.put("projects/p/deep/.Git/er/a.md", "'.git' folder");
        refused.put("shared/x/.git./a.md", "'.git' folder");
        refused.put("projects/p/GIT~1/a.md", "'.git' folder");
        refused.put("projects/p/pay\u200Bpal.md", "invisible (zero-width or format) character (U+200B)");
        refused.put("projects/p/a\u200Db.md", "invisible (zero-width or format) character (U+200D)");
        refused.put("projects/p/\uFEFFnote.md", "invisible (zero-width or format) character (U+FEFF)");
        refused.put("projects/p/soft\u00ADhyphen.md", "invisible (zero-width or format) character (U+00AD)");
        refused.put("projects/p/filler\u3164.md", "invisible (zero-width or format) character (U+3164)");
        refused.put("projects/p/invoice\u202Egnp.md", "bidirectional control character");
        refused.put("projects/p/\u2067isolate.md", "bidirectional control character");
        refused.put("projects/p/mark\u200F.md", "bidirectional control character");
        refused.put("projects/p/a\u0085b.md", "a control character (U+0085)");
        refused.put("projects/p/a\u00A0b.md", "a space character other than the plain space");
        refused.put("projects/p/p\u0430ypal.md", "scripts that look alike (Latin and Cyrillic)");
        refused.put("projects/p/\u0391dmin.md", "scripts that look alike (Latin and Greek)");
        refused.put("projects/p\u0430/notes.md", "scripts that look alike (Latin and Cyrillic)");
        refused.put("shared/\u0430\u03b1.md", "scripts that look alike (Greek and Cyrillic)");
        refused.put("projects/p/\u0585pen.md", "scripts that look alike (Latin and Armenian)");
        for (Map.Entry<String, String> r : refused.entrySet()) {
            assertThatThrownBy(() -> new DraftRequest(r.getKey(), "x", "m").validated()).as(r.getKey())
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.reason()).isEqualTo("unsafe_name");
                        assertThat(e.getMessage()).contains(r.getValue());
                    });
        }
        for (String ok : List.of("projects/p/議事録.md", "shared/日本語のノート.md", "projects/p/Release ノート 2024.md",
                "projects/p/議事録\u30002024.md", "projects/p/ملاحظات.md", "projects/p/notes-مرحبا.md",
                "projects/p/מסמך.md", "projects/p/한국어 메모.md", "projects/p/中文笔记 ㄅㄆ.md", "projects/p/заметки.md",
                "projects/p/Ελληνικά.md", "projects/p/Résumé – Café.md", "projects/p/Ünïcödé ☃.md",
                "projects/p/\u2764\uFE0F favourites.md", "projects/p/.gitignore notes.md", "projects/p/my.git.md")) {
            assertThat(new DraftRequest(ok, "x", "m").validated().documentPath()).as(ok).isEqualTo(ok);
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

    @Test
    void theUiIsToldWhereEditsAreReviewedAndNoneWhenNoHostTakesThem(@org.junit.jupiter.api.io.TempDir
                                                                      java.nio.file.Path dir) throws Exception {
        GitProperties off = new GitProperties(false, null, "main", Duration.ofSeconds(30), Duration.ofSeconds(5),
                "poimen", null, null, "users.noreply.poimen");
        GitProperties following = new GitProperties(true, "https://git.example.org/team/vault.git", "main",
                Duration.ofSeconds(30), Duration.ofSeconds(5), "poimen", null, null, "users.noreply.poimen");
        ForgejoProperties none = new ForgejoProperties(null, null, null, null, Duration.ofSeconds(10), null);
        ForgejoProperties forgejo = new ForgejoProperties("https://git.example.org", "t", "team", "vault",
                Duration.ofSeconds(10), null);
        java.nio.file.Path vault = java.nio.file.Files.createDirectories(dir.resolve("vault"));
        assertThat(new ReviewHosts(off, none, new VaultGit(vault, off, null)).available())
                .as("not a git working copy (yet)").isNull();
        java.nio.file.Files.createDirectories(vault.resolve(".git"));
        assertThat(new ReviewHosts(off, none, new VaultGit(vault, off, null)).available()).isEqualTo(ReviewHost.LOCAL);
        assertThat(new ReviewHosts(following, none, new VaultGit(vault, following, null)).available())
                .as("a vault that follows a remote without Forgejo has no review host").isNull();
        assertThat(new ReviewHosts(following, forgejo, new VaultGit(vault, following, null)).available())
                .isEqualTo(ReviewHost.FORGEJO);
    }
}
