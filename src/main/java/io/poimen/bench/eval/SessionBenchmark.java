package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.retrieval.select.ContextPrompt;
import io.poimen.memory.vault.TokenCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.ProducerTemplate;

/**
 * Runs scripted agent sessions through the query route twice: without {@code session_id} (the plain answer; its
 * context is measured in score order and in the hub's default path order) and with one (the session-stable
 * order the hub arranges). Per order: prefix reuse against the previous turn's prompt ({@link ContextPrompt},
 * cl100k tokens), nDCG@10 of each turn's context in the order sent, prompt tokens sent, and the call reduction.
 */
public class SessionBenchmark {
    public static final List<String> ORDERS = List.of("score", "path", "session");

    private final ProducerTemplate producer;
    private final TokenCounter tokens = new TokenCounter();
    private final ObjectMapper json = new ObjectMapper();

    public SessionBenchmark(ProducerTemplate producer) {
        this.producer = producer;
    }

    /**
     * Figures of one order over all sessions.
     *
     * @param followUpReuse   mean prefix reuse of turns 2.. of each session
     * @param tokenReuse      tokens reused as prefix ÷ tokens sent, all turns
     * @param ndcg10          mean nDCG@10 of the context over the judged turns
     * @param tokensSent      prompt tokens of all turns
     * @param callReduction   mean {@code 1 − selected / candidates}
     * @param serverMismatch  turns where the hub's prefix_reuse differs from the one recomputed here
     */
    public record OrderResult(double followUpReuse, double tokenReuse, double ndcg10, long tokensSent,
                              long tokensReused, double callReduction, int turns, int judgedTurns,
                              int serverMismatch) {
    }

    private static final class Sums {
        double followUpReuse;
        int followUps;
        long sent;
        long reused;
        double ndcg;
        int judged;
        double calls;
        int turns;
        int mismatch;
        int[] previous;

        void turn(int[] prompt, Map<String, Integer> relevant, List<String> docs, double callReduction,
                  boolean first) {
            int common = previous == null ? 0 : ContextPrompt.commonPrefix(previous, prompt);
            if (!first) {
                followUpReuse += prompt.length == 0 ? 0 : (double) common / prompt.length;
                followUps++;
            }
            sent += prompt.length;
            reused += common;
            if (!relevant.isEmpty()) {
                ndcg += RankingMetrics.ndcg(docs, relevant, 10);
                judged++;
            }
            calls += callReduction;
            turns++;
            previous = prompt;
        }

        OrderResult result() {
            return new OrderResult(followUps == 0 ? 0 : followUpReuse / followUps,
                    sent == 0 ? 0 : (double) reused / sent, judged == 0 ? 0 : ndcg / judged, sent, reused,
                    turns == 0 ? 0 : calls / turns, turns, judged, mismatch);
        }
    }

    /** @param idByPath note path → judged document id (empty: documents are judged by note path) */
    public Map<String, OrderResult> run(List<AgentSession> sessions, Map<String, String> idByPath) {
        Map<String, Sums> sums = new LinkedHashMap<>();
        ORDERS.forEach(o -> sums.put(o, new Sums()));
        for (AgentSession s : sessions) {
            sums.values().forEach(x -> x.previous = null);
            String sessionId = "bench-" + UUID.randomUUID();
            for (int t = 0; t < s.turns().size(); t++) {
                AgentSession.Turn turn = s.turns().get(t);
                JsonNode plain = query(s.project(), turn.question(), null);
                JsonNode stable = query(s.project(), turn.question(), sessionId);
                Map<String, JsonNode> plainById = byId(plain);
                List<String> byScore = new ArrayList<>();
                plain.path("results").forEach(r -> byScore.add(r.path("doc_id").asText()));
                record(sums.get("score"), plainById, byScore, plain, turn, idByPath, t == 0);
                record(sums.get("path"), plainById, ids(plain.path("context").path("chunks")), plain, turn, idByPath,
                        t == 0);
                Sums session = sums.get("session");
                int[] before = session.previous;
                int[] prompt = record(session, byId(stable), ids(stable.path("context").path("chunks")), stable,
                        turn, idByPath, t == 0);
                double recomputed = before == null || prompt.length == 0 ? 0
                        : (double) ContextPrompt.commonPrefix(before, prompt) / prompt.length;
                if (Math.abs(stable.path("context").path("prefix_reuse").asDouble(-1) - recomputed) > 1e-9) {
                    session.mismatch++;
                }
            }
        }
        Map<String, OrderResult> out = new LinkedHashMap<>();
        sums.forEach((o, x) -> out.put(o, x.result()));
        return out;
    }

    private int[] record(Sums sums, Map<String, JsonNode> byId, List<String> order, JsonNode response,
                         AgentSession.Turn turn, Map<String, String> idByPath, boolean first) {
        List<ContextPrompt.Part> parts = new ArrayList<>();
        LinkedHashSet<String> docs = new LinkedHashSet<>();
        for (String id : order) {
            JsonNode r = byId.get(id);
            String path = r.path("path").asText();
            parts.add(new ContextPrompt.Part(id, path, r.path("text").asText()));
            docs.add(idByPath.isEmpty() ? path : idByPath.getOrDefault(path, path));
        }
        int[] prompt = tokens.tokens(ContextPrompt.render(parts));
        sums.turn(prompt, turn.relevant(), new ArrayList<>(docs),
                response.path("calls").path("call_reduction").asDouble(), first);
        return prompt;
    }

    private static Map<String, JsonNode> byId(JsonNode response) {
        Map<String, JsonNode> out = new HashMap<>();
        response.path("results").forEach(r -> out.put(r.path("doc_id").asText(), r));
        return out;
    }

    private static List<String> ids(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private JsonNode query(String project, String question, String sessionId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("project", project);
        body.put("query", question);
        if (sessionId != null) {
            body.put("session_id", sessionId);
        }
        try {
            return json.readTree(producer.requestBody("direct:query", json.writeValueAsBytes(body), String.class));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("query route answered something that is not JSON", e);
        }
    }
}
