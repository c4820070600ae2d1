package io.poimen.memory.retrieval.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Writes a BEIR corpus as a vault: one note per document under {@code projects/<project>/docs/}. */
public final class BeirVault {
    public static final String PROJECT = "bench";

    private BeirVault() {
    }

    /** @return note path → corpus id */
    public static Map<String, String> write(BeirDataset set, Path vault) throws IOException {
        Map<String, String> ids = new HashMap<>();
        Path docs = vault.resolve("projects/" + PROJECT + "/docs");
        Files.createDirectories(docs);
        for (BeirDataset.Doc d : set.corpus()) {
            String file = d.id().replaceAll("[^A-Za-z0-9_-]", "_") + ".md";
            String note = d.title().isBlank() ? d.text() + "\n" : "# " + d.title().replace('\n', ' ') + "\n\n" + d.text() + "\n";
            Files.writeString(docs.resolve(file), note, StandardCharsets.UTF_8);
            ids.put("projects/" + PROJECT + "/docs/" + file, d.id());
        }
        return ids;
    }
}
