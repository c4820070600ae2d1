package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.retrieval.select.ContextPrompt;
import io.poimen.memory.vault.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The query route on the example vault, the same for every store profile. */
abstract class QueryRouteContractTest {
    static final Path EXAMPLE_VAULT = Path.of("examples/vault");
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<Class<?>> INGESTED = new java.util.HashSet<>();

    @Autowired ProducerTemplate producer;
    @Autowired GraphService graph;
    @Autowired QueryEmbeddingCache embeddings;

    @BeforeEach
    void ingestOnce() {
        synchronized (INGESTED) {
            if (INGESTED.add(getClass())) {
                IngestReport r = producer.requestBody("direct:ingest", EXAMPLE_VAULT, IngestReport.class);
                assertThat(r.notes()).isGreaterThan(20);
            }
        }
    }

    JsonNode query(String body) throws Exception {
        String out = producer.requestBody("direct:query", body.getBytes(StandardCharsets.UTF_8), String.class);
        return JSON.readTree(out);
    }

    static List<String> paths(JsonNode response) {
        List<String> out = new ArrayList<>();
        response.path("results").forEach(r -> out.add(r.path("path").asText()));
        return out;
    }

    @Test
    void everyResultStaysInsideTheProjectAndItsReachableSharedNotes() throws Exception {
        for (String project : List.of("poimen", "rust-guide", "ml-training")) {
            Set<String> scope = graph.current().projectScope(project);
            for (String q : List.of("kubernetes debugging pod crash", "ownership and borrowing rules",
                    "design patterns for services", "how do we fail over postgres")) {
                JsonNode r = query("{\"project\":\"" + project + "\",\"query\":\"" + q + "\",\"top_k\":20}");
                assertThat(r.path("results").size()).as(project + ": " + q).isPositive();
                assertThat(paths(r)).as(project + ": " + q).allSatisfy(p -> assertThat(scope).contains(p));
                assertThat(paths(r)).allSatisfy(p -> assertThat(p.startsWith("projects/" + project + "/")
                        || p.startsWith("shared/")).isTrue());
            }
        }
        JsonNode rust = query("{\"project\":\"rust-guide\",\"query\":\"kubernetes pod debugging kubectl\",\"top_k\":20}");
        assertThat(paths(rust)).noneMatch(p -> p.contains("SKILL-kubernetes-debugging"));
    }

    @Test
    void aRepeatedQuestionTakesItsVectorFromTheCacheAndAnswersTheSame() throws Exception {
        embeddings.clear();
        long hits = embeddings.hits();
        long misses = embeddings.misses();
        JsonNode first = query("{\"project\":\"poimen\",\"query\":\"why does the replica lag behind the primary\"}");
        JsonNode again = query("{\"project\":\"poimen\",\"query\":\"why does the  replica lag behind the primary \"}");
        assertThat(embeddings.misses() - misses).isEqualTo(1);
        assertThat(embeddings.hits() - hits).isEqualTo(1);
        assertThat(again.path("results")).isEqualTo(first.path("results"));
        assertThat(again.path("degraded")).isEmpty();
    }

    @Test
    void hybridAnswerHasBreakdownContextAndTimings() throws Exception {
        JsonNode r = query("{\"project\":\"poimen\",\"query\":\"how do I fix a pod in CrashLoopBackOff\",\"top_k\":5}");
        assertThat(r.path("strategy").asText()).isEqualTo("hybrid");
        assertThat(r.path("degraded")).isEmpty();
        JsonNode first = r.path("results").get(0);
        assertThat(first.path("path").asText()).isEqualTo("projects/poimen/debugging/pod-crashes.md");
        JsonNode b = first.path("breakdown");
        assertThat(b.path("fusion").asText()).isEqualTo("adaptive");
        assertThat(b.path("weights").has("semantic")).isTrue();
        assertThat(b.path("reason").asText()).contains("adaptive weights");
        assertThat(b.path("branches").has("semantic")).isTrue();
        assertThat(b.path("branches").path("semantic").path("rank").asInt()).isPositive();
        assertThat(b.path("reason").asText()).isNotBlank();
        assertThat(r.path("results").size()).isLessThanOrEqualTo(5);
        JsonNode ctx = r.path("context");
        assertThat(ctx.path("tokens_used").asInt()).isPositive().isLessThanOrEqualTo(ctx.path("token_budget").asInt());
        assertThat(ctx.path("chunks").size()).isEqualTo(r.path("results").size());
        for (String t : List.of("parse", "access", "plan", "tfidf", "embedding", "semantic", "lexical", "branches",
                "fusion", "result_access", "selection", "session", "total")) {
            assertThat(r.path("timings_ms").has(t)).as(t).isTrue();
        }
        // the route's total covers the steps after selection too (the session step, the agent event)
        JsonNode times = r.path("timings_ms");
        assertThat(times.path("total").asDouble()).isGreaterThanOrEqualTo(
                times.path("branches").asDouble() + times.path("selection").asDouble()
                        + times.path("session").asDouble());
    }

    @Test
    void bothFusionsAndEveryMethodAnswer() throws Exception {
        for (String fusion : List.of("weighted", "rrf", "calibrated", "adaptive")) {
            JsonNode r = query("{\"project\":\"poimen\",\"query\":\"postgres replica promotion during failover\","
                    + "\"fusion\":\"" + fusion + "\"}");
            assertThat(r.path("results").get(0).path("breakdown").path("fusion").asText()).isEqualTo(fusion);
            assertThat(paths(r)).contains("projects/poimen/runbooks/postgres-failover.md");
        }
        for (String method : List.of("tfidf", "lexical", "semantic")) {
            JsonNode r = query("{\"project\":\"poimen\",\"query\":\"postgres replica promotion during failover\","
                    + "\"search_method\":\"" + method + "\"}");
            assertThat(r.path("results").get(0).path("breakdown").path("branches").fieldNames())
                    .toIterable().containsExactly(method);
        }
    }

    @Test
    void shortQueriesGoLexicalAndExactKeywordsSurvive() throws Exception {
        JsonNode r = query("{\"project\":\"poimen\",\"query\":\"NXDOMAIN\"}");
        assertThat(r.path("strategy").asText()).isEqualTo("lexical");
        assertThat(r.path("timings_ms").has("semantic")).isFalse();
        assertThat(paths(r)).first().isEqualTo("projects/poimen/debugging/network-policies.md");
    }

    @Test
    void tokenBudgetAndCacheAlignedOrderHold() throws Exception {
        JsonNode r = query("{\"project\":\"poimen\",\"query\":\"kubernetes debugging steps for crashing pods\","
                + "\"budget_tokens\":300,\"top_k\":10}");
        assertThat(r.path("context").path("tokens_used").asInt()).isLessThanOrEqualTo(300);
        List<String> chunks = new ArrayList<>();
        r.path("context").path("chunks").forEach(c -> chunks.add(c.asText()));
        JsonNode again = query("{\"project\":\"poimen\",\"query\":\"kubernetes debugging steps for crashing pods\","
                + "\"budget_tokens\":300,\"top_k\":10}");
        List<String> chunks2 = new ArrayList<>();
        again.path("context").path("chunks").forEach(c -> chunks2.add(c.asText()));
        assertThat(chunks2).isEqualTo(chunks);
        assertThat(chunks).isSortedAccordingTo((a, b) -> {
            String pa = a.substring(0, a.lastIndexOf('#'));
            String pb = b.substring(0, b.lastIndexOf('#'));
            return pa.equals(pb) ? Integer.compare(Integer.parseInt(a.substring(a.lastIndexOf('#') + 1)),
                    Integer.parseInt(b.substring(b.lastIndexOf('#') + 1))) : pa.compareTo(pb);
        });
    }

    @Test
    void promptTokensAndPrefixReuseAreThoseOfTheWholePromptTokenizedAnew() throws Exception {
        TokenCounter counter = new TokenCounter();
        String session = UUID.randomUUID().toString();
        List<String> questions = List.of("kubernetes debugging pod crash", "how do we fail over postgres",
                "why does the replica lag behind the primary", "crash loop backoff restart");
        int[] previous = null;
        int sessionAnswers = 0;
        // twice over: the second round's parts come from the per-chunk memo
        for (int round = 0; round < 2; round++) {
            for (String q : questions) {
                for (String extra : List.of("", ",\"top_k\":4", ",\"session_id\":\"" + session + "\"")) {
                    JsonNode r = query("{\"project\":\"poimen\",\"query\":\"" + q + "\"" + extra + "}");
                    Map<String, JsonNode> byId = new HashMap<>();
                    r.path("results").forEach(x -> byId.put(x.path("doc_id").asText(), x));
                    List<ContextPrompt.Part> parts = new ArrayList<>();
                    r.path("context").path("chunks").forEach(id -> parts.add(new ContextPrompt.Part(id.asText(),
                            byId.get(id.asText()).path("path").asText(), byId.get(id.asText()).path("text").asText())));
                    int[] ids = counter.tokens(ContextPrompt.render(parts));
                    assertThat(ids).isNotEmpty();
                    assertThat(r.path("context").path("prompt_tokens").asInt()).as(q + extra).isEqualTo(ids.length);
                    if (extra.contains("session_id")) {
                        double reuse = previous == null ? 0 : (double) ContextPrompt.commonPrefix(previous, ids)
                                / ids.length;
                        assertThat(r.path("context").path("prefix_reuse").asDouble()).as(q).isEqualTo(reuse);
                        previous = ids;
                        sessionAnswers++;
                    } else {
                        assertThat(r.path("context").has("prefix_reuse")).isFalse();
                    }
                }
            }
        }
        assertThat(sessionAnswers).isEqualTo(2 * questions.size());
    }

    @Test
    void badRequestsGetJsonErrors() throws Exception {
        assertThat(query("{\"query\":\"x y z\"}").path("error").asText()).isEqualTo("bad_request");
        assertThat(query("not json").path("error").asText()).isEqualTo("bad_request");
        assertThat(query("{\"project\":\"nope\",\"query\":\"a b c\"}").path("error").asText()).isEqualTo("not_found");
        assertThat(query("{\"project\":\"poimen\",\"query\":\"a b c\",\"fusion\":\"magic\"}").path("error").asText())
                .isEqualTo("unprocessable");
        assertThat(query("{\"project\":\"poimen\",\"query\":\"a b c\",\"top_k\":0}").path("message").asText())
                .contains("top_k");
    }
}
