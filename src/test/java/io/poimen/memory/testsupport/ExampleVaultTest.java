package io.poimen.memory.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExampleVaultTest {

    @Test
    void aCopyLeavesTheSourcesGitHistoryBehindAndKeepsEveryNote(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("vault");
        GitCommits.write(source, "projects/a/note.md", "# A\n");
        GitCommits.write(source, ".git/HEAD", "ref: refs/heads/main\n");
        GitCommits.write(source, ".gitignore", "*.tmp\n");
        Path target = dir.resolve("copy");

        ExampleVault.copyWithoutGit(source, target);

        assertThat(target.resolve("projects/a/note.md")).hasContent("# A");
        assertThat(target.resolve(".gitignore")).exists();
        assertThat(target.resolve(".git")).doesNotExist();
    }

    @Test
    void theExampleVaultCopiesWithItsNotes(@TempDir Path dir) throws Exception {
        ExampleVault.copyTo(dir);

        try (var notes = Files.walk(dir)) {
            assertThat(notes.filter(p -> p.toString().endsWith(".md")).count()).isGreaterThan(20);
        }
        assertThat(dir.resolve(".git")).doesNotExist();
    }
}
