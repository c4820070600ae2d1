package io.poimen.memory.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The figures of two answers of {@code POST /memory/query} to the same request, side by side: which differ, and
 * whether the two answers are the same where docs/security.md ("Where it is enforced", query) says they must be
 * for two vaults that differ only in notes the caller may not read. Semantic and TF-IDF answers: entirely. An
 * answer the lexical (BM25) branch took part in: the plan ({@code strategy}, {@code route}), {@code degraded},
 * {@code calls.branches}, {@code calls.candidates} when the lexical branch returned fewer than
 * {@code candidates_per_branch} hits (all its matches in scope), and each result's semantic and TF-IDF scores (raw,
 * normalised, rank) where both answers hold the result; the BM25 scores and everything ranked from them may move.
 */
public final class AnswerFigures {
    /** The branches whose lists do not depend on index-wide statistics. */
    static final List<String> SCOPED_BRANCHES = List.of("semantic", "tfidf");
    static final ObjectMapper JSON = new ObjectMapper();
    /** {@code candidates_per_branch} of policies/retrieval.yaml. */
    static final int CANDIDATES_PER_BRANCH = 50;

    private AnswerFigures() {
    }

    /** Whether the lexical branch took part: every method but semantic and TF-IDF search (which route alone). */
    public static boolean lexicalRan(String method) {
        return !"semantic".equals(method) && !"tfidf".equals(method);
    }

    /** The answer as compared: without its timings (the only part that differs between two runs). */
    public static JsonNode comparable(String body) {
        try {
            ObjectNode answer = (ObjectNode) JSON.readTree(body);
            answer.remove("timings_ms");
            return answer;
        } catch (java.io.IOException e) {
            throw new AssertionError("not a JSON answer: " + body, e);
        }
    }

    /** The names of the figures that differ between the two answers (empty when they are the same). */
    public static Set<String> differing(JsonNode a, JsonNode b) {
        Set<String> out = new TreeSet<>();
        Map<String, JsonNode> fa = figures(a);
        Map<String, JsonNode> fb = figures(b);
        fa.forEach((name, value) -> {
            if (!value.equals(fb.get(name))) {
                out.add(name);
            }
        });
        for (String branch : List.of("semantic", "tfidf", "lexical")) {
            if (!commonParts(a, b, branch).equals(commonParts(b, a, branch))) {
                out.add(branch + " scores of a result in both");
            }
        }
        if (!a.equals(b) && out.isEmpty()) {
            out.add("other");
        }
        return out;
    }

    /** Asserts that the answers are the same where the guarantee says so (see the class comment). */
    public static void assertSameWhereGuaranteed(String what, String method, JsonNode a, JsonNode b) {
        if (!lexicalRan(method)) {
            assertThat(a.equals(b) ? Set.of() : differing(a, b)).as(what + ": a " + method + " answer is exact; "
                    + "figures that moved").isEmpty();
            return;
        }
        for (String field : List.of("project", "strategy", "route", "degraded", "degraded_reasons")) {
            assertThat(b.path(field)).as(what + ": " + field).isEqualTo(a.path(field));
        }
        assertThat(b.path("calls").path("branches")).as(what + ": calls.branches")
                .isEqualTo(a.path("calls").path("branches"));
        if (a.path("calls").path("branches").path("lexical").asInt() < CANDIDATES_PER_BRANCH) {
            // every match in scope was returned; beyond, which ones is the BM25 ranking's choice
            assertThat(b.path("calls").path("candidates")).as(what + ": calls.candidates")
                    .isEqualTo(a.path("calls").path("candidates"));
        }
        for (String branch : SCOPED_BRANCHES) {
            assertThat(commonParts(b, a, branch)).as(what + ": " + branch + " scores of the results in both answers")
                    .isEqualTo(commonParts(a, b, branch));
        }
    }

    /** Figure name → value, for the report of which figures moved. */
    static Map<String, JsonNode> figures(JsonNode answer) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        List<String> ids = answer.path("results").findValuesAsText("doc_id");
        out.put("results (order)", JSON.valueToTree(ids));
        out.put("results (set)", JSON.valueToTree(new TreeSet<>(ids)));
        List<Double> scores = new ArrayList<>();
        Set<JsonNode> weights = new LinkedHashSet<>();
        for (JsonNode r : answer.path("results")) {
            scores.add(r.path("score").asDouble());
            weights.add(r.path("breakdown").path("weights"));
        }
        out.put("scores", JSON.valueToTree(scores));
        out.put("fusion weights", JSON.valueToTree(weights));
        for (String part : List.of("raw", "normalized", "rank")) {
            out.put("lexical " + part, JSON.valueToTree(parts(answer, "lexical", part)));
        }
        out.put("context chunks", answer.path("context").path("chunks"));
        out.put("context tokens", JSON.valueToTree(List.of(answer.path("context").path("tokens_used"),
                answer.path("context").path("prompt_tokens"))));
        out.put("calls.candidates", answer.path("calls").path("candidates"));
        out.put("calls.branches", answer.path("calls").path("branches"));
        out.put("calls.selected", answer.path("calls").path("selected"));
        out.put("plan and degraded", JSON.valueToTree(List.of(answer.path("strategy"), answer.path("route"),
                answer.path("degraded"))));
        return out;
    }

    /** Result id → one part ({@code raw}, {@code normalized}, {@code rank}) of one branch's score. */
    static Map<String, JsonNode> parts(JsonNode answer, String branch, String part) {
        Map<String, JsonNode> out = new TreeMap<>();
        for (JsonNode r : answer.path("results")) {
            JsonNode b = r.path("breakdown").path("branches").path(branch);
            if (!b.isMissingNode()) {
                out.put(r.path("doc_id").asText(), b.path(part));
            }
        }
        return out;
    }

    /** Result id → its {@code branch} raw, normalised score and rank, for the results {@code other} holds too. */
    static Map<String, List<JsonNode>> commonParts(JsonNode answer, JsonNode other, String branch) {
        Set<String> both = new TreeSet<>(other.path("results").findValuesAsText("doc_id"));
        Map<String, List<JsonNode>> out = new TreeMap<>();
        for (JsonNode r : answer.path("results")) {
            JsonNode b = r.path("breakdown").path("branches").path(branch);
            String id = r.path("doc_id").asText();
            if (both.contains(id) && !b.isMissingNode()) {
                out.put(id, List.of(b.path("raw"), b.path("normalized"), b.path("rank")));
            }
        }
        return out;
    }
}
