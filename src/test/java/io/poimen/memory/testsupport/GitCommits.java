package io.poimen.memory.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;

/** Writing files into a working copy and committing them at a chosen time (note times in the vault's history). */
public final class GitCommits {
    private GitCommits() {
    }

    /** Writes {@code text} to {@code path} under {@code root}, creating its folders. */
    public static void write(Path root, String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    /** Adds every file of the working copy and commits it, author and committer time {@code when}. */
    public static void commitAll(Git git, Instant when) throws Exception {
        PersonIdent who = new PersonIdent("Team", "team@example.org", when, ZoneOffset.UTC);
        git.add().addFilepattern(".").call();
        git.commit().setMessage("notes of " + when).setAuthor(who).setCommitter(who).call();
    }
}
