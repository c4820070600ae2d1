package io.poimen.memory.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
        boolean links = trySymlink(vault.resolve("projects/leak"), tmp.resolve("outside"));
        if (links) {
            Files.createSymbolicLink(vault.resolve("projects/leak.md"), tmp.resolve("outside/secret.md"));
            Files.createSymbolicLink(vault.resolve("projects/alias-dir"), vault.resolve("shared/skills"));
            Files.createSymbolicLink(vault.resolve("projects/loop"), vault.resolve("projects"));
            Files.createSymbolicLink(vault.resolve("projects/broken.md"), vault.resolve("missing.md"));
        }

        VaultSnapshot snap = new VaultScanner().scan(vault);

        assertThat(snap.files()).containsExactly("projects/poimen/_access.yaml", "projects/poimen/assets/d.png",
                "projects/poimen/index.md", "shared/skills/SKILL-k8s/SKILL.md", "shared/skills/SKILL-k8s/_access.yaml");
        assertThat(snap.markdown()).contains("projects/poimen/index.md", "shared/skills/SKILL-k8s/SKILL.md")
                .allMatch(f -> f.endsWith(".md"));
        assertThat(snap.access()).containsExactly("projects/poimen/_access.yaml",
                "shared/skills/SKILL-k8s/_access.yaml");
        if (links) {
            assertThat(snap.skipped()).containsEntry("projects/leak", "symbolic link to outside the vault")
                    .containsEntry("projects/leak.md", "symbolic link to outside the vault")
                    .containsEntry("projects/alias-dir", "symbolic link (its target is listed under its own path)")
                    .containsEntry("projects/loop", "symbolic link (its target is listed under its own path)")
                    .containsEntry("projects/broken.md", "broken symbolic link");
        }
    }

    @Test
    void symlinksAreSupportedHere() throws IOException {
        assumeTrue(!System.getProperty("os.name").toLowerCase().contains("win"));
        assertThat(trySymlink(tmp.resolve("l"), tmp)).isTrue();
    }

    private static boolean trySymlink(Path link, Path target) {
        try {
            Files.createSymbolicLink(link, target);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
