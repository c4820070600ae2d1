package io.poimen.memory.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the project's own scripts under {@code scripts/} (a throwaway PostgreSQL cluster, Keycloak) for tests. */
final class TestScripts {
    private TestScripts() {
    }

    /** The project folder: the working directory or the nearest parent holding {@code script}. */
    static Path projectDir(String script, String instead) {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(script))) {
                return dir;
            }
        }
        throw new IllegalStateException("no " + script + " in " + System.getProperty("user.dir")
                + " or its parents; " + instead);
    }

    /** Runs {@code bash script args...} in {@code project}; its output lines, or an exception with them. */
    static List<String> run(Path project, String script, Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", project.resolve(script).toString()));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).start();
            List<String> lines;
            try (var reader = process.inputReader(StandardCharsets.UTF_8)) {
                lines = reader.lines().toList();
            }
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(script + " " + String.join(" ", args) + " failed: " + lines);
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + script, e);
        }
    }
}
