package io.poimen.memory.index.tfidf;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.VaultPaths;
import java.util.List;

final class TestChunks {
    private TestChunks() {
    }

    /** A chunk of note {@code path}; the project comes from the path. */
    static Chunk chunk(String path, int ordinal, String heading, String text, String... keyTerms) {
        return new Chunk(Chunk.idOf(path, ordinal), path, VaultPaths.projectOf(path), ordinal, heading,
                List.of(heading), text, text.split("\\s+").length,
                new ChunkMetadata(heading, text, List.of(keyTerms), ChunkMetadata.CONCEPT), List.of());
    }
}
