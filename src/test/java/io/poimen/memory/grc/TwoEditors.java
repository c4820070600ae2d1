package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.Test;

/**
 * Issue 26's two-editor scenarios on the hub as review host, through the hub's HTTP API, for any store profile and
 * security mode ({@link Hub} says how a request is made as either editor). Each scenario works on a note of its
 * own, created by a draft one editor writes and the other approves, with two sections: two editors edit it from the
 * same version, each approves the other's draft.
 * <ul>
 *   <li>different sections: both changes are in the note after both merges, in either order;</li>
 *   <li>the same lines: the second draft is {@code conflict} at its approval, its branch kept, nothing reverted;</li>
 *   <li>a commit pushed onto the vault branch between submission and approval: on other lines the draft is merged
 *       with it, on the same lines the draft is {@code conflict}; the pushed change is never reverted.</li>
 * </ul>
 * The branch of a merged or rejected draft is deleted from the vault repository; a conflicting draft's stays.
 */
final class TwoEditors {
    static final ObjectMapper JSON = new ObjectMapper();

    /** An answer of the hub: status and JSON body. */
    record Answer(int status, JsonNode body) {
    }

    /** The hub under test, as each of the two editors (0 and 1) reaches it. */
    interface Hub {
        Answer get(int editor, String path) throws Exception;

        Answer post(int editor, String path, String json) throws Exception;

        /** The vault folder: the hub's git repository. */
        Path vault();
    }

    /** The scenarios as tests of a class that says how to reach its hub. */
    interface Scenarios {
        TwoEditors editors();

        @Test
        default void twoEditorsEditingOneNoteFromOneVersionLoseNothingInEitherOrder() throws Exception {
            editors().differentSectionsAreBothKeptInEitherOrder();
        }

        @Test
        default void twoEditorsChangingTheSameLinesMakeTheSecondDraftAConflict() throws Exception {
            editors().theSameLinesMakeTheSecondDraftAConflictAndNothingIsReverted();
        }

        @Test
        default void aCommitPushedOntoTheVaultBranchBeforeTheApprovalIsNeverReverted() throws Exception {
            editors().aCommitPushedBetweenSubmissionAndApprovalIsMergedWithOrAConflictNeverReverted();
        }

        @Test
        default void theBranchOfARejectedDraftIsDeleted() throws Exception {
            editors().aRejectedDraftsBranchIsDeleted();
        }
    }

    private final Hub hub;
    private final String folder;

    /** @param folder where the scenarios' notes are made: a folder both editors may write */
    TwoEditors(Hub hub, String folder) {
        this.hub = hub;
        this.folder = folder;
    }

    void differentSectionsAreBothKeptInEitherOrder() throws Exception {
        for (boolean firstFirst : new boolean[] {true, false}) {
            String note = created();
            String base = version(note);
            String alpha = "alpha by the first editor " + unique();
            String beta = "beta by the second editor " + unique();
            String first = submitted(0, replaceSection(note, base, "Alpha", alpha));
            String second = submitted(1, replaceSection(note, base, "Beta", beta));
            Answer a = approve(firstFirst ? 1 : 0, firstFirst ? first : second);
            assertThat(a.body().path("status").asText()).as(a.body().toString()).isEqualTo("merged");
            Answer b = approve(firstFirst ? 0 : 1, firstFirst ? second : first);
            assertThat(b.body().path("status").asText()).as("a change to other lines is merged with the first: "
                    + b.body()).isEqualTo("merged");
            assertThat(text(note)).contains(alpha, beta).doesNotContain("alpha one", "beta one");
            assertThat(branch(a.body())).as("a merged draft's branch is deleted").isFalse();
            assertThat(branch(b.body())).as("a merged draft's branch is deleted").isFalse();
        }
    }

    void theSameLinesMakeTheSecondDraftAConflictAndNothingIsReverted() throws Exception {
        String note = created();
        String base = version(note);
        String mine = "alpha as the first editor has it " + unique();
        String theirs = "alpha as the second editor has it " + unique();
        String first = submitted(0, replaceSection(note, base, "Alpha", mine));
        String second = submitted(1, replaceSection(note, base, "Alpha", theirs));
        assertThat(approve(1, first).body().path("status").asText()).isEqualTo("merged");
        String merged = text(note);

        Answer conflict = approve(0, second);
        assertThat(conflict.body().path("status").asText()).as(conflict.body().toString()).isEqualTo("conflict");
        JsonNode shown = conflict.body().path("conflicts").get(0);
        assertThat(shown.path("path").asText()).isEqualTo(note);
        assertThat(shown.path("text").asText()).contains("<<<<<<<", mine, theirs);
        assertThat(text(note)).as("nothing reverted").isEqualTo(merged).contains(mine).doesNotContain(theirs);
        assertThat(branch(conflict.body())).as("a conflicting draft keeps its branch for the reviewer").isTrue();
        Answer again = hub.get(1, "/memory/grc/drafts/" + second);
        assertThat(again.body().path("status").asText()).isEqualTo("conflict");
    }

    void aCommitPushedBetweenSubmissionAndApprovalIsMergedWithOrAConflictNeverReverted() throws Exception {
        String note = created();
        String alpha = "alpha while beta was pushed " + unique();
        String clean = submitted(0, replaceSection(note, version(note), "Alpha", alpha));
        String pushedBeta = "beta pushed by hand " + unique();
        push(note, text(note).replace("beta one", pushedBeta));
        Answer merged = approve(1, clean);
        assertThat(merged.body().path("status").asText()).as(merged.body().toString()).isEqualTo("merged");
        assertThat(text(note)).contains(alpha, pushedBeta).doesNotContain("beta one", "alpha one");

        String late = "alpha of a draft overtaken by a push " + unique();
        String overtaken = submitted(1, replaceSection(note, version(note), "Alpha", late));
        String pushedAlpha = "alpha pushed by hand " + unique();
        push(note, text(note).replace(alpha, pushedAlpha));
        String pushed = text(note);
        Answer conflict = approve(0, overtaken);
        assertThat(conflict.body().path("status").asText()).as(conflict.body().toString()).isEqualTo("conflict");
        assertThat(text(note)).as("the pushed change is not reverted").isEqualTo(pushed).contains(pushedAlpha,
                pushedBeta).doesNotContain(late);
    }

    void aRejectedDraftsBranchIsDeleted() throws Exception {
        String note = created();
        String id = submitted(0, replaceSection(note, version(note), "Beta", "beta nobody wants " + unique()));
        Answer shown = hub.get(0, "/memory/grc/drafts/" + id);
        assertThat(branch(shown.body())).isTrue();
        Answer rejected = hub.post(1, "/memory/grc/drafts/" + id + "/reject", "{\"comment\":\"not this\"}");
        assertThat(rejected.status()).as(rejected.body().toString()).isEqualTo(200);
        assertThat(rejected.body().path("status").asText()).isEqualTo("rejected");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(branch(shown.body()))
                .as("a rejected draft's branch is deleted").isFalse());
        assertThat(text(note)).doesNotContain("beta nobody wants");
    }

    /** A new note with sections Alpha and Beta, written by editor 0 and approved by editor 1. */
    private String created() throws Exception {
        String u = unique();
        String note = folder + "/concurrency-" + u + ".md";
        String content = "# Concurrency " + u + "\n\n## Alpha\n\nalpha one " + u + "\nalpha two " + u
                + "\n\n## Beta\n\nbeta one " + u + "\nbeta two " + u + "\n";
        ObjectNode body = JSON.createObjectNode().put("message", "Concurrency note " + u);
        body.putArray("operations").addObject().put("op", "write").put("path", note).put("content", content);
        body.putObject("base_versions").put(note, "");
        String id = submitted(0, body);
        assertThat(approve(1, id).body().path("status").asText()).isEqualTo("merged");
        assertThat(text(note)).isEqualTo(content);
        return note;
    }

    private String version(String note) throws Exception {
        Answer read = hub.get(0, "/memory/vault/file?path=" + note);
        assertThat(read.status()).as(read.body().toString()).isEqualTo(200);
        String version = read.body().path("version").asText();
        assertThat(version).matches("[0-9a-f]{40}");
        return version;
    }

    private static ObjectNode replaceSection(String note, String base, String section, String content) {
        ObjectNode body = JSON.createObjectNode().put("message", "Rewrite " + section);
        body.putArray("operations").addObject().put("op", "replace_section").put("path", note)
                .put("section", section).put("content", content);
        body.putObject("base_versions").put(note, base);
        return body;
    }

    private String submitted(int editor, ObjectNode body) throws Exception {
        Answer r = hub.post(editor, "/memory/grc/draft", body.toString());
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        assertThat(r.body().path("status").asText()).isEqualTo("open");
        return r.body().path("draft_id").asText();
    }

    private Answer approve(int reviewer, String id) throws Exception {
        Answer r = hub.post(reviewer, "/memory/grc/drafts/" + id + "/approve", "{}");
        assertThat(r.status()).as(r.body().toString()).isEqualTo(200);
        return r;
    }

    private String text(String note) throws Exception {
        return Files.readString(hub.vault().resolve(note));
    }

    /** Someone commits straight onto the vault branch, in the vault folder. */
    private void push(String note, String content) throws Exception {
        Files.writeString(hub.vault().resolve(note), content);
        try (Git git = Git.open(hub.vault().toFile())) {
            PersonIdent who = new PersonIdent("someone", "someone@example.org");
            git.add().addFilepattern(note).call();
            git.commit().setMessage("by hand").setAuthor(who).setCommitter(who).setSign(false).call();
        }
    }

    /** Whether the draft's branch is in the vault repository. */
    private boolean branch(JsonNode draft) throws Exception {
        String name = draft.path("branch").asText();
        assertThat(name).startsWith(BranchNames.PREFIX);
        try (Git git = Git.open(hub.vault().toFile())) {
            return git.getRepository().exactRef(Constants.R_HEADS + name) != null;
        }
    }

    private static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
