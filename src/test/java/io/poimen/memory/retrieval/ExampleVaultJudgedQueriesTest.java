package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.poimen.bench.eval.RankingMetrics;
import io.poimen.memory.web.HubWebTestBase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The judged questions about the example vault ({@code examples/queries/example-vault.jsonl}: questions written from
 * the notes, the sections that answer them graded 2, related ones 1) asked of the hub over HTTP; relevance is per
 * chunk (note path and section heading). The default hybrid answer's mean nDCG@10 must not fall below
 * {@link #HYBRID_FLOOR}: a ranking change that makes these answers worse fails the build. The figures of every
 * method are printed (docs/retrieval.md, "The example vault's judged questions").
 */
class ExampleVaultJudgedQueriesTest extends HubWebTestBase {
    static final Path JUDGED = Path.of("examples/queries/example-vault.jsonl");
    /**
     * Measured 2026-12-04 at 0.8935 (tfidf 0.7338, lexical 0.8655, semantic 0.8549), 2026-12-05 with links' references
     * left out of the chunks' own text at 0.8951 (0.7353, 0.8610, 0.8592), then with the chunks embedded as written
     * again at 0.8992 (0.7353, 0.8610, 0.8549; docs/retrieval.md): the floor is a little
     * below, so a real drop fails and a better ranking raises it.
     */
    static final double HYBRID_FLOOR = 0.87;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    record Judged(String id, String project, String query, Map<String, Integer> grades) {
    }

    static List<Judged> judged() throws Exception {
        List<Judged> out = new ArrayList<>();
        for (String line : Files.readAllLines(JUDGED)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode q = JSON.readTree(line);
            Map<String, Integer> grades = new LinkedHashMap<>();
            q.path("relevant").forEach(r -> grades.put(key(r.path("path").asText(), r.path("heading").asText()),
                    r.path("grade").asInt()));
            out.add(new Judged(q.path("id").asText(), q.path("project").asText(), q.path("query").asText(), grades));
        }
        return out;
    }

    static String key(String path, String heading) {
        return path + "#" + heading;
    }

    JsonNode ask(Judged q, String method) throws Exception {
        ObjectNode request = JSON.createObjectNode().put("project", q.project()).put("query", q.query())
                .put("top_k", 10).put("budget_tokens", 100_000);
        if (method != null) { // null: the route chooses
            request.put("search_method", method);
        }
        String body = request.toString();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/memory/query"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(q.id() + " " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    double meanNdcg(List<Judged> questions, String method, Map<String, Double> perQuery) throws Exception {
        double sum = 0;
        for (Judged q : questions) {
            List<String> ranked = new ArrayList<>();
            ask(q, method).path("results").forEach(r -> ranked.add(key(r.path("path").asText(),
                    r.path("heading").asText())));
            double ndcg = RankingMetrics.ndcg(ranked, q.grades(), 10);
            perQuery.put(q.id(), ndcg);
            sum += ndcg;
        }
        return sum / questions.size();
    }

    @Test
    void theDefaultAnswerRanksTheSectionsThatAnswerAtLeastAsWellAsBefore() throws Exception {
        List<Judged> questions = judged();
        assertThat(questions).hasSizeGreaterThanOrEqualTo(30);
        Map<String, Map<String, Double>> perQuery = new LinkedHashMap<>();
        Map<String, Double> means = new LinkedHashMap<>();
        for (String method : List.of("tfidf", "lexical", "semantic", "hybrid")) {
            perQuery.put(method, new LinkedHashMap<>());
            means.put(method, meanNdcg(questions, method, perQuery.get(method)));
        }
        System.out.printf("[judged example vault] %d questions, mean nDCG@10: %s%n", questions.size(), means);
        perQuery.get("hybrid").forEach((id, v) -> System.out.printf("[judged example vault] %s hybrid %.4f%n", id, v));
        assertThat(means.get("hybrid")).isGreaterThanOrEqualTo(HYBRID_FLOOR);
    }

    /**
     * Issue 29: "CrashLoopBackOff" answered first with the "Related" paragraph of network-policies.md, whose only
     * mention of the word is the link {@code [[pod-crashes#CrashLoopBackOff]]}. A link's reference is not the
     * chunk's own text (vault/LinkText), so in every branch the sections of pod-crashes.md that explain it come first.
     */
    @Test
    void aSeeAlsoLinkToTheAnswerDoesNotOutrankTheAnswer() throws Exception {
        Judged q = new Judged("crashloop", "poimen", "CrashLoopBackOff", Map.of());
        String related = key("projects/poimen/debugging/network-policies.md", "Related");
        List<String> answering = List.of(key("projects/poimen/debugging/pod-crashes.md", "CrashLoopBackOff"),
                key("projects/poimen/debugging/pod-crashes.md", "How to fix CrashLoopBackOff"));
        for (String method : List.of("default", "tfidf", "lexical", "semantic", "hybrid")) {
            List<String> ranked = new ArrayList<>();
            ask(q, method.equals("default") ? null : method).path("results").forEach(r -> ranked.add(key(
                    r.path("path").asText(), r.path("heading").asText())));
            System.out.printf("[crashloop] %s %s%n", method, ranked);
            assertThat(ranked).as(method).isNotEmpty().containsAll(answering);
            assertThat(ranked.get(0)).as(method).isIn(answering);
            int last = answering.stream().mapToInt(ranked::indexOf).max().orElseThrow();
            assertThat(ranked.indexOf(related)).as(method + ": the see-also link after both answering sections")
                    .satisfiesAnyOf(i -> assertThat(i).isEqualTo(-1), i -> assertThat(i).isGreaterThan(last));
        }
    }
}
