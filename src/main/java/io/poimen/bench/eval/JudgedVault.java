package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A vault and questions judged per section ({@code examples/queries/*.jsonl}: one JSON object per line with
 * {@code id}, {@code project}, {@code query} and {@code relevant: [{path, heading, grade}]}), as
 * {@code scripts/judged-queries.py} scores them: a document is a section, {@code path#heading}, and a section split
 * into several chunks counts once. Named after the questions' file.
 */
public record JudgedVault(String name, Path vault, Map<String, String> judgedQueries, Map<String, String> projects,
                          Map<String, Map<String, Integer>> qrels) implements JudgedSet {

    /** @throws IllegalArgumentException when a line is not such a question */
    public static JudgedVault load(Path vault, Path questions) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> queries = new LinkedHashMap<>();
        Map<String, String> projects = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        int line = 0;
        for (String text : Files.readAllLines(questions, StandardCharsets.UTF_8)) {
            line++;
            if (text.isBlank()) {
                continue;
            }
            JsonNode q = json.readTree(text);
            String id = q.path("id").asText("");
            if (id.isEmpty() || !q.path("query").isTextual() || !q.path("project").isTextual()
                    || !q.path("relevant").isArray() || q.path("relevant").isEmpty()) {
                throw new IllegalArgumentException(questions + " line " + line
                        + ": a question needs id, project, query and relevant [{path, heading, grade}]");
            }
            queries.put(id, q.path("query").asText());
            projects.put(id, q.path("project").asText());
            Map<String, Integer> grades = new LinkedHashMap<>();
            q.path("relevant").forEach(r -> grades.put(r.path("path").asText() + "#" + r.path("heading").asText(),
                    r.path("grade").asInt(1)));
            qrels.put(id, grades);
        }
        String file = questions.getFileName().toString();
        return new JudgedVault(file.replaceFirst("\\.jsonl?$", ""), vault, queries, projects, qrels);
    }

    @Override
    public String project(String queryId) {
        return projects.get(queryId);
    }

    @Override
    public String document(String path, String heading) {
        return path + "#" + heading;
    }
}
