package io.poimen.memory.security.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.api.ApiException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VaultPathGuardTest {
    @TempDir Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "../x.md", "projects/../../x.md", "projects/p/..", "/etc/passwd", "~/x",
            "C:/Windows/x", "c:x", "projects\\p\\x.md", "projects/p/x.md\u0000.png", "projects//p.md", "./x.md",
            "%2e%2e/x.md", "%2E%2E%2Fx.md", "projects%2f..%2f..%2fx", "%252e%252e/x.md", "%25252e%25252e/x.md",
            "%5c..%5cx", "x%00.md", "projects/p/\n.md"})
    void rejectsTraversalAndOddPaths(String path) {
        assertThatThrownBy(() -> VaultPathGuard.check(path)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo("bad_path");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"projects/poimen/index.md", "shared/skills/SKILL-x/SKILL.md", "a b/c d.md",
            "projects/p/100%.md", "notes/..hidden.md", "projects/p/v1.2/x.md"})
    void acceptsOrdinaryVaultPaths(String path) {
        assertThat(VaultPathGuard.check(path)).isEqualTo(path);
    }

    @Test
    void symlinksOutOfTheVaultAreRejectedAndNewFilesAreCheckedByTheirFolder() throws IOException {
        Path vault = Files.createDirectories(tmp.resolve("vault/projects/p"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.md"), "x");
        Files.createSymbolicLink(vault.resolve("out"), outside);
        Files.createSymbolicLink(vault.resolve("inside"), vault);
        VaultPathGuard guard = new VaultPathGuard(tmp.resolve("vault"));

        assertThatThrownBy(() -> guard.resolve("projects/p/out/secret.md")).isInstanceOf(ApiException.class)
                .hasMessageContaining("outside the vault");
        assertThatThrownBy(() -> guard.resolve("projects/p/out/new-draft.md")).isInstanceOf(ApiException.class);
        assertThat(guard.resolve("projects/p/inside/x.md")).isNotNull();
        assertThat(guard.resolve("projects/p/new-draft.md"))
                .isEqualTo(tmp.resolve("vault/projects/p/new-draft.md").toAbsolutePath().normalize());
    }
}
