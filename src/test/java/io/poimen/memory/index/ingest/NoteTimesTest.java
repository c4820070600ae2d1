package io.poimen.memory.index.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.testsupport.GitCommits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A note's time is its last commit's time in a git vault when the file is as committed, else its file time. */
class NoteTimesTest {
    private static final Instant T1 = Instant.parse("2025-01-10T08:00:00Z");
    private static final Instant T2 = Instant.parse("2025-03-01T12:30:00Z");
    private static final Instant T3 = Instant.parse("2025-06-20T17:45:00Z");
    private static final Instant FILE_TIME = Instant.parse("2026-02-02T02:02:02Z");

    @TempDir
    Path vault;

    @Test
    void inAGitVaultEachCommittedNoteHasItsLastCommitsTime_othersTheirFileTime() throws Exception {
        try (Git git = Git.init().setDirectory(vault.toFile()).setInitialBranch("main").call()) {
            write("projects/p/a.md", "# A\n\nfirst");
            write("projects/p/b.md", "# B\n\nonly version");
            write("projects/p/c.md", "# C\n\ncommitted");
            commit(git, T1);
            write("projects/p/b.md", "# B\n\nsecond version");
            commit(git, T2);
            write("projects/p/a.md", "# A\n\nsecond");
            commit(git, T3);
            write("projects/p/c.md", "# C\n\nedited, not committed");
            write("projects/p/d.md", "# D\n\nnever committed");
        }
        for (String p : List.of("a", "b", "c", "d")) {
            Files.setLastModifiedTime(vault.resolve("projects/p/" + p + ".md"), FileTime.from(FILE_TIME));
        }
        Map<String, Instant> times = NoteTimes.of(vault,
                List.of("projects/p/a.md", "projects/p/b.md", "projects/p/c.md", "projects/p/d.md"));
        assertThat(times).containsExactlyInAnyOrderEntriesOf(Map.of("projects/p/a.md", T3, "projects/p/b.md", T2,
                "projects/p/c.md", FILE_TIME, "projects/p/d.md", FILE_TIME));
    }

    @Test
    void aVaultThatIsNoGitWorkingCopyUsesFileTimes() throws Exception {
        write("shared/concepts/x.md", "# X");
        Files.setLastModifiedTime(vault.resolve("shared/concepts/x.md"), FileTime.from(T2));
        assertThat(NoteTimes.of(vault, List.of("shared/concepts/x.md")))
                .isEqualTo(Map.of("shared/concepts/x.md", T2));
    }

    private void write(String path, String text) throws IOException {
        GitCommits.write(vault, path, text);
    }

    private static void commit(Git git, Instant when) throws Exception {
        GitCommits.commitAll(git, when);
    }
}
