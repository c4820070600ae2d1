package io.poimen.memory.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The repository's example vault, copied for a test. A {@code .git} folder in it is left behind: serving
 * examples/vault in place git-initialises it, and a copy carrying that history would give its notes today's
 * commit times instead of the ones the tests expect.
 */
public final class ExampleVault {
    public static final Path SOURCE = Path.of("examples/vault");

    private ExampleVault() {
    }

    /** Copies the example vault into {@code target} (created when missing), without any {@code .git}. */
    public static void copyTo(Path target) throws IOException {
        copyWithoutGit(SOURCE, target);
    }

    /** Copies the files of {@code source} into {@code target}, replacing files there, skipping {@code .git}. */
    public static void copyWithoutGit(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path from : (Iterable<Path>) files::iterator) {
                Path relative = source.relativize(from);
                if (relative.toString().equals(".git") || relative.startsWith(".git")) {
                    continue;
                }
                Path to = target.resolve(relative.toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
