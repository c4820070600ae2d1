package io.poimen.memory.retrieval.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.api.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SearchFiltersTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-05T12:00:00Z"), ZoneOffset.UTC);
    static final ObjectMapper JSON = new ObjectMapper();

    static final NoteFacts DRAFT = new NoteFacts("projects/poimen/runbooks/a.md", "A", List.of("k8s/networking", "ops"),
            Map.of("status", "Draft", "priority", 3, "due", "2026-11-20", "owners", List.of("ann", "bo")),
            Instant.parse("2026-11-15T10:00:00Z"));
    static final NoteFacts DONE = new NoteFacts("projects/poimen/tools/b.md", "B", List.of("k8s"),
            Map.of("status", "done", "priority", 1.5, "due", "2026-10-01T08:00:00Z"),
            Instant.parse("2026-10-01T00:00:00Z"));
    static final NoteFacts PLAIN = new NoteFacts("shared/concepts/c.md", "C", List.of(), Map.of(),
            Instant.parse("2026-12-04T00:00:00Z"));

    static SearchFilters parse(String json) throws Exception {
        return SearchFilters.parse(JSON.readValue(json, Map.class), CLOCK);
    }

    static List<String> kept(String json) throws Exception {
        SearchFilters f = parse(json);
        return List.of(DRAFT, DONE, PLAIN).stream().filter(f::matches).map(NoteFacts::path).toList();
    }

    @Test
    void eachFilterKeepsOnlyTheNotesThatMatchIt() throws Exception {
        assertThat(kept("{}")).hasSize(3);
        assertThat(kept("{\"tags\":[\"#K8s\"]}")).as("a parent tag matches its nested tags")
                .containsExactly(DRAFT.path(), DONE.path());
        assertThat(kept("{\"tags\":[\"k8s\",\"ops\"]}")).containsExactly(DRAFT.path());
        assertThat(kept("{\"tags\":[\"k8\"]}")).as("a prefix of a tag is not the tag").isEmpty();
        assertThat(kept("{\"path_prefix\":\"projects/poimen/\"}")).containsExactly(DRAFT.path(), DONE.path());
        assertThat(kept("{\"changed_after\":\"2026-11-01\"}")).containsExactly(DRAFT.path(), PLAIN.path());
        assertThat(kept("{\"changed_before\":\"2026-11-01\"}")).containsExactly(DONE.path());
        assertThat(kept("{\"changed_after\":\"7d\"}")).containsExactly(PLAIN.path());
        assertThat(kept("{\"changed_after\":\"2026-10-01T00:00:00Z\",\"changed_before\":\"2026-11-15T10:00:00Z\"}"))
                .as("after is inclusive, before exclusive").containsExactly(DONE.path());
    }

    @Test
    void fieldOperatorsCompareNumbersDatesAndTextIgnoringCase() throws Exception {
        assertThat(kept("{\"fields\":{\"status\":\"draft\"}}")).containsExactly(DRAFT.path());
        assertThat(kept("{\"fields\":{\"status\":[\"draft\",\"done\"]}}")).containsExactly(DRAFT.path(), DONE.path());
        assertThat(kept("{\"fields\":{\"status\":{\"$in\":[\"done\"]}}}")).containsExactly(DONE.path());
        assertThat(kept("{\"fields\":{\"priority\":{\"gte\":2}}}")).containsExactly(DRAFT.path());
        assertThat(kept("{\"fields\":{\"priority\":{\"gt\":1.5}}}")).containsExactly(DRAFT.path());
        assertThat(kept("{\"fields\":{\"priority\":{\"lte\":1.5}}}")).containsExactly(DONE.path());
        assertThat(kept("{\"fields\":{\"priority\":{\"between\":[1,2]}}}")).containsExactly(DONE.path());
        assertThat(kept("{\"fields\":{\"priority\":{\"eq\":3}}}")).containsExactly(DRAFT.path());
        assertThat(kept("{\"fields\":{\"due\":{\"$between\":[\"2026-11-01\",\"2026-11-30\"]}}}"))
                .containsExactly(DRAFT.path());
        assertThat(kept("{\"fields\":{\"due\":{\"lt\":\"2026-11-01\"}}}")).containsExactly(DONE.path());
        assertThat(kept("{\"fields\":{\"owners\":\"bo\"}}")).as("a list field matches when one item does")
                .containsExactly(DRAFT.path());
        assertThat(kept("{\"fields\":{\"status\":{\"gt\":1}}}")).as("text is never in a number range").isEmpty();
        assertThat(kept("{\"fields\":{\"missing\":\"x\"}}")).isEmpty();
        assertThat(kept("{\"fields\":{\"priority\":{\"gte\":1,\"lt\":2}}}")).as("operators of a field: AND")
                .containsExactly(DONE.path());
    }

    @Test
    void aMalformedFilterIsA400NamingIt() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("[1]", "filters must be an object"),
                Map.entry("{\"tag\":[\"x\"]}", "filters.tag is not a filter"),
                Map.entry("{\"tags\":[3]}", "filters.tags must be tag names"),
                Map.entry("{\"tags\":[\"two words\"]}", "filters.tags must be tag names"),
                Map.entry("{\"path_prefix\":\"../etc\"}", "filters.path_prefix"),
                Map.entry("{\"path_prefix\":7}", "filters.path_prefix must be"),
                Map.entry("{\"changed_after\":\"soon\"}", "filters.changed_after"),
                Map.entry("{\"changed_before\":5}", "filters.changed_before must be"),
                Map.entry("{\"changed_after\":\"2026-12-01\",\"changed_before\":\"2026-11-01\"}",
                        "filters.changed_after must be before"),
                Map.entry("{\"fields\":[1]}", "filters.fields must be an object"),
                Map.entry("{\"fields\":{\"a b\":1}}", "filters.fields.a b is not a front-matter field"),
                Map.entry("{\"fields\":{\"priority\":{\"gte\":\"high\"}}}", "filters.fields.priority.gte takes a number"),
                Map.entry("{\"fields\":{\"priority\":{\"over\":1}}}", "filters.fields.priority.over is not an operator"),
                Map.entry("{\"fields\":{\"priority\":{}}}", "filters.fields.priority needs an operator"),
                Map.entry("{\"fields\":{\"priority\":{\"between\":[1]}}}", "filters.fields.priority.between takes two"),
                Map.entry("{\"fields\":{\"priority\":{\"between\":[1,\"2026-01-01\"]}}}",
                        "filters.fields.priority.between takes two numbers or two dates"),
                Map.entry("{\"fields\":{\"status\":{\"in\":\"draft\"}}}", "filters.fields.status.in takes a list"),
                Map.entry("{\"fields\":{\"status\":{\"eq\":{\"x\":1}}}}", "filters.fields.status.eq takes text"),
                Map.entry("{\"fields\":{\"priority\":{\"gt\":1e309}}}", "filters.fields.priority.gt takes a number"),
                Map.entry("{\"fields\":{\"priority\":1e309}}", "filters.fields.priority takes text"));
        cases.forEach((json, message) -> assertThatThrownBy(() -> SearchFilters.parse(JSON.readValue(json,
                Object.class), CLOCK)).as(json).isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).contains(message);
                }));
    }
}
