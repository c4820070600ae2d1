package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VaultScannerTest {
    @TempDir
    Path tmp;

    private static void write(Path root, String rel) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "x");
    }

    @Test
    void listsFilesSkippingHiddenAndOutsideLinks() throws IOException {
        Path vault = tmp.resolve("vault");
        write(vault, "projects/poimen/index.md");
        write(vault, "projects/poimen/_access.yaml");
        write(vault, "projects/poimen/assets/d.png");
        write(vault, "shared/skills/SKILL-k8s/SKILL.md");
        write(vault, "shared/skills/SKILL-k8s/_access.yaml");
        write(vault, ".git/config");
        write(vault, ".obsidian/app.json");
        write(vault, ".trash/old.md");
        write(vault, "projects/.hidden/x.md");
        write(vault, "projects/poimen/.DS_Store");
        write(tmp, "outside/secret.md");
        // symbolic links are part of the contract (the suite runs on Linux): created unconditionally
        Files.createSymbolicLink(vault.resolve("projects/leak"), tmp.resolve("outside"));
        Files.createSymbolicLink(vault.resolve("projects/leak.md"), tmp.resolve("outside/secret.md"));
        Files.createSymbolicLink(vault.resolve("projects/alias-dir"), vault.resolve("shared/skills"));
        Files.createSymbolicLink(vault.resolve("projects/loop"), vault.resolve("projects"));
        Files.createSymbolicLink(vault.resolve("projects/broken.md"), vault.resolve("missing.md"));

        VaultSnapshot snap = new VaultScanner().scan(vault);

        assertThat(snap.files()).containsExactly("projects/poimen/_access.yaml", "projects/poimen/assets/d.png",
                "projects/poimen/index.md", "shared/skills/SKILL-k8s/SKILL.md", "shared/skills/SKILL-k8s/_access.yaml");
        assertThat(snap.markdown()).contains("projects/poimen/index.md", "shared/skills/SKILL-k8s/SKILL.md")
                .allMatch(f -> f.endsWith(".md"));
        assertThat(snap.access()).containsExactly("projects/poimen/_access.yaml",
                "shared/skills/SKILL-k8s/_access.yaml");
        assertThat(snap.skipped()).containsEntry("projects/leak", "symbolic link to outside the vault")
                .containsEntry("projects/leak.md", "symbolic link to outside the vault")
                .containsEntry("projects/alias-dir", "symbolic link (its target is listed under its own path)")
                .containsEntry("projects/loop", "symbolic link (its target is listed under its own path)")
                .containsEntry("projects/broken.md", "broken symbolic link");
    }
}
