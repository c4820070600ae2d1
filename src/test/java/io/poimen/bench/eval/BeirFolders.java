package io.poimen.bench.eval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A BEIR-format folder for tests: corpus.jsonl, queries.jsonl and qrels/test.tsv as given. */
public final class BeirFolders {
    private BeirFolders() {
    }

    /** Writes the three files under {@code dir} (created with its qrels folder) and returns {@code dir}. */
    public static Path write(Path dir, CharSequence corpus, CharSequence queries, CharSequence qrels)
            throws IOException {
        Files.createDirectories(dir.resolve("qrels"));
        Files.writeString(dir.resolve("corpus.jsonl"), corpus);
        Files.writeString(dir.resolve("queries.jsonl"), queries);
        Files.writeString(dir.resolve("qrels/test.tsv"), qrels);
        return dir;
    }
}
