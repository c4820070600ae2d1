package io.poimen.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentSessionTest {

    @Test
    void reformulationsLeaveOutOneThenTwoAdjacentWordsWhileOneRemains() {
        assertThat(AgentSession.leftOut(List.of("causes", "of", "suicide"))).containsExactly(
                "of suicide", "causes suicide", "causes of", "suicide", "causes");
        assertThat(AgentSession.leftOut(List.of("one"))).isEmpty();
    }

    @Test
    void reformulatedSessionsAreOnePerDistinctJudgedQueryWithItsJudgments() {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("q1", "causes of suicide");
        queries.put("q2", "causes of suicide"); // the same text again: one session
        queries.put("q3", "unjudged question");
        queries.put("q4", "only zero grades");
        queries.put("q5", "word");
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        qrels.put("q1", Map.of("d1", 2));
        qrels.put("q2", Map.of("d2", 1));
        qrels.put("q4", Map.of("d1", 0));
        qrels.put("q5", Map.of("d3", 1));
        BeirDataset set = new BeirDataset("tiny", List.of(), queries, qrels);

        List<AgentSession> sessions = AgentSession.reformulate(set, 7);

        assertThat(sessions).extracting(AgentSession::name).containsExactly("tiny-q1", "tiny-q5");
        AgentSession first = sessions.get(0);
        assertThat(first.turns()).extracting(AgentSession.Turn::question).containsExactly("causes of suicide",
                "of suicide", "causes suicide", "causes of", "suicide", "causes", "of suicide");
        assertThat(first.turns()).allSatisfy(t -> assertThat(t.relevant()).isEqualTo(Map.of("d1", 2)));
        // one word has no reformulation: the agent asks it again
        assertThat(sessions.get(1).turns()).hasSize(7).allSatisfy(t -> assertThat(t.question()).isEqualTo("word"));
    }
}
