package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

/**
 * No lost update on the hub as review host (the embedded default): drafts made from one version of a note are merged
 * with each other's changes when they touch different lines, and the one that would revert another's change is a
 * {@code conflict} (at approval) or a 409 {@code edit_conflict} (at submission); nothing is reverted. The
 * {@link TwoEditors} scenarios run here on the embedded stores and in {@link LocalReviewConcurrencyProdOidcTest} on
 * the prod profile with OIDC.
 */
class LocalReviewConcurrencyTest extends LocalReviewTestSupport implements TwoEditors.Scenarios {
    static final String NOTE = "projects/rust-guide/tools/cargo.md";

    @Test
    void draftsFromOneBaseKeepEachOthersChangesAndTheSameLinesAreAConflictNeverARevert() throws Exception {
        JsonNode read = read(NOTE);
        String base = read.path("version").asText();
        assertThat(base).matches("[0-9a-f]{40}");
        String testing = "Run `cargo nextest` for the " + "testing" + unique() + " suite.";
        String workspaces = "Share one lock file in the workspaces" + unique() + " root.";
        String other = "Run `cargo test -- --nocapture` for the " + "other" + unique() + " output.";
        String a = submitted(draft("Nextest", Map.of(NOTE, base), op("replace_section", NOTE, "section", "Testing",
                "content", testing)));
        String b = submitted(draft("One lock file", Map.of(NOTE, base), op("replace_section", NOTE, "section",
                "Workspaces", "content", workspaces)));
        String c = submitted(draft("Nocapture", Map.of(NOTE, base), op("replace_section", NOTE, "section", "Testing",
                "content", other)));

        assertThat(decided(a)).isEqualTo("merged");
        assertThat(decided(b)).as("a change to other lines is merged with the first").isEqualTo("merged");
        assertThat(Files.readString(vault().resolve(NOTE))).contains(testing, workspaces);

        ResponseEntity<String> approved = review(c, "approve", null);
        assertThat(approved.getStatusCode().value()).as(approved.getBody()).isEqualTo(200);
        JsonNode conflict = json(approved);
        assertThat(conflict.path("status").asText()).isEqualTo("conflict");
        assertThat(conflict.path("conflicts").get(0).path("path").asText()).isEqualTo(NOTE);
        assertThat(conflict.path("conflicts").get(0).path("text").asText()).contains("<<<<<<<", testing, other);
        String now = Files.readString(vault().resolve(NOTE));
        assertThat(now).as("nothing reverted").contains(testing, workspaces).doesNotContain(other);

        // a draft made from the old version on the same lines is refused at submission, naming the version now
        ResponseEntity<String> stale = post("/memory/grc/draft", draft("Nocapture again", Map.of(NOTE, base),
                op("replace_section", NOTE, "section", "Testing", "content", other)));
        assertThat(stale.getStatusCode().value()).as(stale.getBody()).isEqualTo(409);
        JsonNode refused = json(stale);
        assertThat(refused.path("error").asText()).isEqualTo("edit_conflict");
        assertThat(refused.path("conflicts").get(0).path("current_version").asText())
                .isEqualTo(read(NOTE).path("version").asText()).isNotEqualTo(base);
        assertThat(Files.readString(vault().resolve(NOTE))).isEqualTo(now);
    }

    /** Both editors are the local operator here (who may approve their own drafts). */
    @Override
    public TwoEditors editors() {
        return new TwoEditors(new TwoEditors.Hub() {
            @Override
            public TwoEditors.Answer get(int editor, String path) throws Exception {
                ResponseEntity<String> r = http.getForEntity(path, String.class);
                return new TwoEditors.Answer(r.getStatusCode().value(), json(r));
            }

            @Override
            public TwoEditors.Answer post(int editor, String path, String json) throws Exception {
                ResponseEntity<String> r = LocalReviewConcurrencyTest.this.post(path, JSON.readTree(json));
                return new TwoEditors.Answer(r.getStatusCode().value(), json(r));
            }

            @Override
            public java.nio.file.Path vault() {
                return LocalReviewTestSupport.vault();
            }
        }, "projects/poimen/memories");
    }

    private String submitted(Object body) throws Exception {
        ResponseEntity<String> r = post("/memory/grc/draft", body);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(201);
        assertThat(json(r).path("status").asText()).isEqualTo("open");
        return json(r).path("draft_id").asText();
    }

    private String decided(String id) throws Exception {
        ResponseEntity<String> r = review(id, "approve", null);
        assertThat(r.getStatusCode().value()).as(r.getBody()).isEqualTo(200);
        return json(r).path("status").asText();
    }
}
