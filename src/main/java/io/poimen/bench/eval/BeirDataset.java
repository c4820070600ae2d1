package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A BEIR-format set: {@code corpus.jsonl} ({@code _id, title, text}), {@code queries.jsonl} ({@code _id, text})
 * and {@code qrels/test.tsv} ({@code query-id corpus-id score}, header optional, 0 = judged not relevant).
 */
public record BeirDataset(String name, List<Doc> corpus, Map<String, String> queries,
                          Map<String, Map<String, Integer>> qrels) {

    public record Doc(String id, String title, String text) {
    }

    public static BeirDataset load(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Doc> corpus = new ArrayList<>();
        for (JsonNode n : readJsonLines(json, dir.resolve("corpus.jsonl"))) {
            corpus.add(new Doc(n.path("_id").asText(), n.path("title").asText(""), n.path("text").asText("")));
        }
        Map<String, String> queries = new LinkedHashMap<>();
        for (JsonNode n : readJsonLines(json, dir.resolve("queries.jsonl"))) {
            queries.put(n.path("_id").asText(), n.path("text").asText());
        }
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("qrels/test.tsv"), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            if (f.length < 3 || !f[2].trim().matches("-?\\d+")) {
                continue; // header or blank line
            }
            qrels.computeIfAbsent(f[0].trim(), k -> new HashMap<>()).put(f[1].trim(), Integer.parseInt(f[2].trim()));
        }
        return new BeirDataset(dir.getFileName().toString(), corpus, queries, qrels);
    }

    /** The set with only the first {@code docs} documents of its corpus (same queries and judgements); 0: all. */
    public BeirDataset firstDocuments(int docs) {
        return docs <= 0 || docs >= corpus.size() ? this : new BeirDataset(name, corpus.subList(0, docs), queries, qrels);
    }

    /** The judged queries that exist in queries.jsonl (only those are scored). */
    public Map<String, String> judgedQueries() {
        Map<String, String> out = new LinkedHashMap<>();
        qrels.keySet().stream().filter(queries::containsKey).forEach(q -> out.put(q, queries.get(q)));
        return out;
    }

    private static List<JsonNode> readJsonLines(ObjectMapper json, Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    out.add(json.readTree(line));
                }
            }
        }
        return out;
    }
}
