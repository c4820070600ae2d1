package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.index.ingest.VaultChanges;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.AdviceWith;
import org.apache.camel.component.mock.MockEndpoint;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The writer's merge timer of {@link DraftRoutes} ({@code grc-merge-requested}) on the hub as review host: an
 * approval whose merge could not run is merged and ingested by the timer once the way is clear. The merge route's
 * ingest is advised to pass through {@code mock:merge-ingest} as well.
 */
@DirtiesContext
@TestPropertySource(properties = "poimen.forgejo.delivery.retry-period=300")
class DraftRoutesTest extends LocalReviewTestSupport {
    /** A data folder of its own: the hub of the other review tests (another context) keeps its Lucene locks. */
    static final Path OWN_DATA = Path.of("target/it-draft-routes/data-" + UUID.randomUUID()).toAbsolutePath();

    @Autowired CamelContext camel;

    @DynamicPropertySource
    static void ownDataFolder(DynamicPropertyRegistry registry) {
        registry.add("poimen.test.data-dir", OWN_DATA::toString);
    }

    protected static Path vault() {
        return OWN_DATA.resolve("vault");
    }

    @Test
    void anApprovalWhoseMergeWasInTheWayIsMergedAndIngestedByTheWritersTimerOnceTheVaultIsClean() throws Exception {
        AdviceWith.adviceWith(camel, "grc-merge",
                a -> a.weaveByToUri("direct:ingest").before().to("mock:merge-ingest"));
        MockEndpoint ingests = camel.getEndpoint("mock:merge-ingest", MockEndpoint.class);
        String note = "projects/poimen/tools/helm.md";
        JsonNode read = read(note);
        String word = "kestrel" + unique();
        ResponseEntity<String> submitted = post("/memory/grc/draft", draft("Explain previews",
                Map.of(note, read.path("version").asText()),
                op("replace_section", note, "section", "Previewing a change", "content",
                        "Render with `helm template` and diff with the " + word + " plugin.")));
        assertThat(submitted.getStatusCode().value()).as(submitted.getBody()).isEqualTo(201);
        String id = json(submitted).path("draft_id").asText();

        // someone edits the note in the vault folder by hand and has not committed it yet
        Path file = vault().resolve(note);
        String committed = Files.readString(file);
        Files.writeString(file, committed + "\nAn uncommitted line.\n");
        ResponseEntity<String> approved = review(id, "approve", "looks right");
        assertThat(approved.getStatusCode().value()).as(approved.getBody()).isEqualTo(409);
        assertThat(json(approved).path("error").asText()).isEqualTo("vault_dirty");
        assertThat(ingests.getReceivedCounter()).isZero();

        Files.writeString(file, committed);
        await().atMost(Duration.ofSeconds(30)).until(() -> ingests.getReceivedCounter() == 1);
        VaultChanges merged = ingests.getReceivedExchanges().get(0).getMessage().getBody(VaultChanges.class);
        assertThat(merged.upserted()).contains(note);
        assertThat(json(http.getForEntity("/memory/grc/drafts/" + id, String.class)).path("status").asText())
                .isEqualTo("merged");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(json(post("/memory/query",
                Map.of("project", "poimen", "query", word + " plugin"))).path("results").get(0).path("text")
                .asText()).contains(word));
        try (Git git = Git.open(vault().toFile())) {
            assertThat(git.log().setMaxCount(1).call().iterator().next().getFullMessage()).contains("Explain previews");
        }
    }
}
