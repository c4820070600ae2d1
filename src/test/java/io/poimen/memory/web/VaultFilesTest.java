package io.poimen.memory.web;

import io.poimen.memory.api.ApiException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VaultFilesTest {
    @TempDir
    Path tmp;
    Path vault;
    VaultFiles files;

    @BeforeEach
    void vault() throws IOException {
        vault = Files.createDirectories(tmp.resolve("vault"));
        Files.createDirectories(vault.resolve("projects/p"));
        Files.writeString(vault.resolve("projects/p/note.md"), "# Note\n");
        Files.writeString(tmp.resolve("secret.md"), "outside");
        files = new VaultFiles(vault);
    }

    @Test
    void readsANoteByItsVaultPath() {
        assertThat(files.read("projects/p/note.md")).isEqualTo("# Note\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../secret.md", "projects/../../secret.md", "projects/p/../../../secret.md", "/etc/passwd",
            "C:/windows/win.ini", "projects\\p\\note.md", "%2e%2e/secret.md", "projects/%2E%2E/x.md", "./projects/p/note.md",
            "projects//p/note.md", "projects/p/note.md\u0000.png", " ", ""})
    void refusesPathsThatCouldLeaveTheVault(String path) {
        assertThatThrownBy(() -> files.read(path)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo("bad_path");
        });
    }

    @Test
    void refusesASymlinkThatLeadsOutOfTheVault() throws IOException {
        Files.createSymbolicLink(vault.resolve("projects/p/escape.md"), tmp.resolve("secret.md"));
        assertThatThrownBy(() -> files.read("projects/p/escape.md")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo("bad_path"));
    }

    @Test
    void followsASymlinkThatStaysInside() throws IOException {
        Files.createSymbolicLink(vault.resolve("projects/p/alias.md"), vault.resolve("projects/p/note.md"));
        assertThat(files.read("projects/p/alias.md")).isEqualTo("# Note\n");
    }

    @Test
    void answers404ForAMissingFileOrAFolder() {
        assertThatThrownBy(() -> files.read("projects/p/missing.md")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThatThrownBy(() -> files.read("projects/p")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(404));
    }
}
