package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

/** Review on the hub itself, on the embedded default: a section edit is submitted, approved, merged, searchable. */
class LocalReviewTest extends LocalReviewTestSupport {

    @Test
    void aSectionEditIsApprovedMergedIntoTheVaultRepositoryAndSearchable() throws Exception {
        String note = "projects/poimen/tools/helm.md";
        assertThat(Files.isDirectory(vault().resolve(".git"))).as("the seeded vault is a git repository").isTrue();
        JsonNode read = read(note);
        String word = "zebrafinch" + unique();
        ResponseEntity<String> submitted = post("/memory/grc/draft", draft("Explain previews",
                Map.of(note, read.path("version").asText()),
                op("replace_section", note, "section", "Previewing a change", "content",
                        "Render with `helm template` and diff with the " + word + " plugin.")));
        assertThat(submitted.getStatusCode().value()).as(submitted.getBody()).isEqualTo(201);
        JsonNode draft = json(submitted);
        assertThat(draft.path("status").asText()).isEqualTo("open");
        assertThat(draft.path("review_host").asText()).isEqualTo("local");
        String id = draft.path("draft_id").asText();

        JsonNode listed = json(http.getForEntity("/memory/grc/drafts", String.class));
        assertThat(listed.path("drafts").findValuesAsText("draft_id")).contains(id);
        JsonNode shown = json(http.getForEntity("/memory/grc/drafts/" + id, String.class));
        assertThat(shown.path("diff").get(0).path("diff").asText()).contains("+Render with `helm template` and diff "
                + "with the " + word);

        ResponseEntity<String> approved = review(id, "approve", "looks right");
        assertThat(approved.getStatusCode().value()).as(approved.getBody()).isEqualTo(200);
        assertThat(json(approved).path("status").asText()).isEqualTo("merged");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode results = json(post("/memory/query", Map.of("project", "poimen", "query", word + " plugin")))
                    .path("results");
            assertThat(results).isNotEmpty();
            assertThat(results.get(0).path("text").asText()).contains(word);
        });
        assertThat(Files.readString(vault().resolve(note))).contains(word).contains("## Stuck releases");
        try (Git git = Git.open(vault().toFile())) {
            assertThat(git.log().setMaxCount(1).call().iterator().next().getFullMessage()).contains("Explain previews");
        }
    }

    @Test
    void aDryRunAnswersTheDiffOfTheDraftAndStoresNothing() throws Exception {
        String note = "projects/poimen/tools/kubectl.md";
        JsonNode ui = json(http.getForEntity("/memory/ui/config", String.class));
        assertThat(ui.path("review").asText()).as("the UI offers editing: the hub reviews").isEqualTo("local");
        JsonNode read = read(note);
        String version = read.path("version").asText();
        String word = "dryrunwren" + unique();
        List<String> drafts = json(http.getForEntity("/memory/grc/drafts?status=all&limit=200", String.class))
                .path("drafts").findValuesAsText("draft_id");
        List<String> branches = branches();
        var body = draft("Preview only", Map.of(note, version), op("append", note, "content", "Tail with " + word + "."));
        body.put("dry_run", true);
        ResponseEntity<String> preview = post("/memory/grc/draft", body);
        assertThat(preview.getStatusCode().value()).as(preview.getBody()).isEqualTo(200);
        JsonNode shown = json(preview);
        assertThat(shown.path("dry_run").asBoolean()).isTrue();
        assertThat(shown.has("draft_id")).isFalse();
        assertThat(shown.path("base_versions").path(note).asText()).isEqualTo(version);
        assertThat(shown.path("diff").get(0).path("change").asText()).isEqualTo("modified");
        assertThat(shown.path("diff").get(0).path("diff").asText()).contains("+++ b/" + note, "+Tail with " + word);

        // finished drafts' branches may be pruned meanwhile: nothing is added
        assertThat(json(http.getForEntity("/memory/grc/drafts?status=all&limit=200", String.class)).path("drafts")
                .findValuesAsText("draft_id")).as("no draft stored").isSubsetOf(drafts);
        assertThat(branches()).as("no branch made").isSubsetOf(branches);
        assertThat(Files.readString(vault().resolve(note))).doesNotContain(word);

        body.put("dry_run", "yes");
        ResponseEntity<String> bad = post("/memory/grc/draft", body);
        assertThat(bad.getStatusCode().value()).as(bad.getBody()).isEqualTo(400);
        assertThat(json(bad).path("message").asText()).contains("dry_run");
    }

    private static List<String> branches() throws Exception {
        try (Git git = Git.open(vault().toFile())) {
            return git.branchList().call().stream().map(org.eclipse.jgit.lib.Ref::getName).toList();
        }
    }
}
