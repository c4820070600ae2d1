package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.vault.Terms;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted agent session: follow-up questions on one topic in one project, each with the documents judged
 * relevant to it (graded; empty when the question is not judged).
 */
public record AgentSession(String name, String project, List<Turn> turns) {

    public record Turn(String question, Map<String, Integer> relevant) {
    }

    /**
     * Sessions written by hand ({@code examples/bench-sessions.json}): {@code [{name, project, relevant: {path:
     * grade}, questions: [...]}]}; every question of a session is judged with the session's topic judgments.
     */
    public static List<AgentSession> load(Path file) throws IOException {
        List<AgentSession> out = new ArrayList<>();
        for (JsonNode s : new ObjectMapper().readTree(file.toFile())) {
            Map<String, Integer> relevant = new LinkedHashMap<>();
            s.path("relevant").fields().forEachRemaining(e -> relevant.put(e.getKey(), e.getValue().asInt()));
            List<Turn> turns = new ArrayList<>();
            s.path("questions").forEach(q -> turns.add(new Turn(q.asText(), relevant)));
            out.add(new AgentSession(s.path("name").asText(), s.path("project").asText(), List.copyOf(turns)));
        }
        return out;
    }

    /**
     * Groups a BEIR set's queries into sessions of {@code size} related questions by the words they share (TF-IDF
     * cosine over the query texts alone; the judgments are not looked at): repeatedly the query with the most
     * similar unassigned neighbours opens a session with its {@code size − 1} nearest ones, in the set's order.
     * Judgments are attached afterwards, for scoring only.
     */
    public static List<AgentSession> group(BeirDataset set, int size) {
        List<String> ids = new ArrayList<>(set.queries().keySet());
        List<Map<String, Double>> vectors = tfidf(ids.stream().map(set.queries()::get).toList());
        int n = ids.size();
        double[][] sim = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                sim[i][j] = i == j ? 0 : cosine(vectors.get(i), vectors.get(j));
            }
        }
        List<Integer> open = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            open.add(i);
        }
        List<AgentSession> out = new ArrayList<>();
        while (open.size() >= size) {
            int seed = -1;
            double best = -1;
            for (int i : open) {
                double s = nearest(sim[i], open, i, size - 1).stream().mapToDouble(j -> sim[i][j]).sum();
                if (s > best) {
                    best = s;
                    seed = i;
                }
            }
            List<Integer> members = new ArrayList<>(nearest(sim[seed], open, seed, size - 1));
            members.add(seed);
            members.sort(Integer::compare);
            open.removeAll(members);
            List<Turn> turns = members.stream().map(i -> new Turn(set.queries().get(ids.get(i)),
                    set.qrels().getOrDefault(ids.get(i), Map.of()))).toList();
            out.add(new AgentSession(set.name() + "-" + (out.size() + 1), BeirVault.PROJECT, turns));
        }
        return out;
    }

    /**
     * One session per judged query of a BEIR set (distinct query texts, in the set's order): the agent asks the query
     * and follows it up {@code size − 1} times with reformulations that leave words out (widening), every turn judged
     * with the query's judgments, which are read only to score. Words are the query's whitespace-separated tokens;
     * the follow-ups leave out one word (the first, then the second, ...), then two adjacent words, then three, and
     * so on while at least one word remains, starting again from the first follow-up when the query is too short.
     */
    public static List<AgentSession> reformulate(BeirDataset set, int size) {
        List<AgentSession> out = new ArrayList<>();
        java.util.Set<String> asked = new java.util.HashSet<>();
        for (Map.Entry<String, String> q : set.queries().entrySet()) {
            Map<String, Integer> relevant = set.qrels().getOrDefault(q.getKey(), Map.of());
            if (relevant.values().stream().noneMatch(g -> g > 0) || !asked.add(q.getValue().strip())) {
                continue;
            }
            List<String> variants = leftOut(List.of(q.getValue().strip().split("\\s+")));
            List<Turn> turns = new ArrayList<>();
            turns.add(new Turn(q.getValue(), relevant));
            for (int t = 0; t + 1 < size; t++) {
                turns.add(new Turn(variants.isEmpty() ? q.getValue() : variants.get(t % variants.size()), relevant));
            }
            out.add(new AgentSession(set.name() + "-" + q.getKey(), BeirVault.PROJECT, List.copyOf(turns)));
        }
        return out;
    }

    /** The query with 1, 2, ... adjacent words left out, leftmost first, while a word remains. */
    static List<String> leftOut(List<String> words) {
        List<String> out = new ArrayList<>();
        for (int gap = 1; gap < words.size(); gap++) {
            for (int from = 0; from + gap <= words.size(); from++) {
                List<String> kept = new ArrayList<>(words.subList(0, from));
                kept.addAll(words.subList(from + gap, words.size()));
                out.add(String.join(" ", kept));
            }
        }
        return out;
    }

    private static List<Integer> nearest(double[] row, List<Integer> open, int self, int k) {
        return open.stream().filter(j -> j != self)
                .sorted((a, b) -> Double.compare(row[b], row[a]) != 0 ? Double.compare(row[b], row[a])
                        : Integer.compare(a, b))
                .limit(k).toList();
    }

    private static List<Map<String, Double>> tfidf(List<String> texts) {
        List<Map<String, Integer>> tf = texts.stream().map(t -> {
            Map<String, Integer> m = new HashMap<>();
            Terms.analyze(t).forEach(w -> m.merge(w, 1, Integer::sum));
            return m;
        }).toList();
        Map<String, Integer> df = new HashMap<>();
        tf.forEach(m -> m.keySet().forEach(w -> df.merge(w, 1, Integer::sum)));
        return tf.stream().map(m -> {
            Map<String, Double> v = new HashMap<>();
            m.forEach((w, c) -> v.put(w, c * Math.log((double) texts.size() / df.get(w))));
            return v;
        }).toList();
    }

    private static double cosine(Map<String, Double> a, Map<String, Double> b) {
        double dot = 0;
        for (Map.Entry<String, Double> e : a.entrySet()) {
            dot += e.getValue() * b.getOrDefault(e.getKey(), 0.0);
        }
        double na = Math.sqrt(a.values().stream().mapToDouble(x -> x * x).sum());
        double nb = Math.sqrt(b.values().stream().mapToDouble(x -> x * x).sum());
        return na == 0 || nb == 0 ? 0 : dot / (na * nb);
    }
}
