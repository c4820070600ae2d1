package io.poimen.memory.retrieval.select;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.NoteRejectedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The chunks of examples/vault as ingest makes them: real note text for the selection tests. */
final class ExampleVaultChunks {
    private ExampleVaultChunks() {
    }

    static List<Chunk> all() {
        Path vault = Path.of("examples/vault");
        NoteParser parser = NoteParser.withDefaults();
        List<Chunk> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(vault)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                String path = vault.relativize(f).toString().replace('\\', '/');
                out.addAll(parser.parse(path, Files.readAllBytes(f)).chunks());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoteRejectedException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
