package io.poimen.bench.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.Map;

/**
 * Writes a BEIR corpus as a vault: one note per document under {@code projects/<project>/docs/}; for a larger
 * latency vault, more notes under {@code projects/<project>/mixed/}, each made of sentences of two corpus
 * documents (fixed seed), so the added notes have the corpus's words and lengths.
 */
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

    /** As {@link #write(BeirDataset, Path)}, padded to {@code notes} notes when the corpus has fewer. */
    public static Map<String, String> write(BeirDataset set, Path vault, int notes) throws IOException {
        Map<String, String> ids = write(set, vault);
        List<BeirDataset.Doc> docs = set.corpus();
        int extra = notes - docs.size();
        if (extra <= 0 || docs.isEmpty()) {
            return ids;
        }
        Path mixed = Files.createDirectories(vault.resolve("projects/" + PROJECT + "/mixed"));
        Random random = new Random(13);
        for (int i = 0; i < extra; i++) {
            List<String> a = sentences(docs.get(random.nextInt(docs.size())).text());
            List<String> b = sentences(docs.get(random.nextInt(docs.size())).text());
            StringBuilder note = new StringBuilder();
            for (int j = 0; j < Math.max(a.size(), b.size()); j++) {
                note.append(j < a.size() ? a.get(j) + " " : "").append(j < b.size() ? b.get(j) + " " : "");
            }
            Files.writeString(mixed.resolve(String.format("m-%05d.md", i)), note.toString().strip() + "\n",
                    StandardCharsets.UTF_8);
        }
        return ids;
    }

    private static List<String> sentences(String text) {
        return List.of(text.split("(?<=[.!?])\\s+"));
    }
}
