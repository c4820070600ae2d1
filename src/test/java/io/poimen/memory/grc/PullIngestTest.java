package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.vault.Chunk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A pull hands ingest the paths of its diff (adds, modifications, deletes, renames), not the whole vault: a note
 * left in the working copy outside git is not picked up by a pull, only by a forced (whole-vault) reindex.
 */
class PullIngestTest extends GrcTestSupport {
    static final String DIR = "projects/poimen/pull-diff/";
    static final String ALPHA = DIR + "alpha.md";
    static final String BETA = DIR + "pull-beta.md";
    static final String GAMMA = DIR + "gamma.md";
    static final String DELTA = DIR + "pull-delta.md";
    static final String RENAMED = DIR + "alpha-renamed.md";
    static final String LOCAL = DIR + "local-only.md";

    @Autowired LexicalIndex lexical;
    @Autowired NoteStore notes;
    @Autowired GraphService graph;
    @Autowired TfIdfIndex tfidf;

    @Test
    void addsModificationsDeletesAndRenamesReachEveryIndexAndTheGraph() throws Exception {
        sync(commit(Map.of(ALPHA, "# Alpha\n\nThe zephyrquill procedure, see [[pull-beta]].\n",
                GAMMA, "# Gamma\n\nThe lumenbract checklist.\n"), List.of(), "Add alpha and gamma"));
        assertThat(pathsFor("zephyrquill")).containsExactly(ALPHA);
        assertThat(graph.current().outgoing(ALPHA)).as("pull-beta does not exist yet").isEmpty();

        // a note only in the working copy: a scan would index it, a diff never names it
        Path local = VAULT.resolve(LOCAL);
        Files.writeString(local, "# Local\n\nThe quasarnib draft nobody committed.\n");
        try {
            // added note resolves alpha's old link; modified note loses its old word
            sync(commit(Map.of(BETA, "# Beta\n\nThe pull-beta note.\n",
                    GAMMA, "# Gamma\n\nThe orbitalfen checklist.\n"), List.of(), "Add beta, edit gamma"));
            assertThat(graph.current().outgoing(ALPHA)).containsExactly(BETA);
            assertThat(graph.current().backlinks(BETA)).containsExactly(ALPHA);
            assertThat(pathsFor("orbitalfen")).containsExactly(GAMMA);
            assertThat(pathsFor("lumenbract")).isEmpty();
            assertThat(tfidf.search("lumenbract", (String) null, null, 5)).isEmpty();
            assertThat(pathsFor("quasarnib")).as("the pull read its diff only, not the whole vault").isEmpty();
            assertThat(syncStatus().path("notes_reindexed").asInt()).isEqualTo(2);

            // rename alpha, delete gamma
            sync(commit(Map.of(RENAMED, "# Alpha\n\nThe zephyrquill procedure, see [[pull-beta]].\n"),
                    List.of(ALPHA, GAMMA), "Rename alpha, delete gamma"));
            assertThat(pathsFor("zephyrquill")).containsExactly(RENAMED);
            assertThat(pathsFor("orbitalfen")).isEmpty();
            assertThat(notes.note(ALPHA)).isEmpty();
            assertThat(notes.note(GAMMA)).isEmpty();
            assertThat(graph.current().notes()).contains(RENAMED, BETA).doesNotContain(ALPHA, GAMMA);
            assertThat(graph.current().backlinks(BETA)).containsExactly(RENAMED);
            assertThat(syncStatus().path("files_changed").toString()).contains("renamed", ALPHA);

            // a note whose links change: the graph follows
            sync(commit(Map.of(RENAMED, "# Alpha\n\nThe zephyrquill procedure, now see [[pull-delta]].\n",
                    DELTA, "# Delta\n\nThe pull-delta note.\n"), List.of(), "Alpha links to delta"));
            assertThat(graph.current().outgoing(RENAMED)).containsExactly(DELTA);
            assertThat(graph.current().backlinks(BETA)).isEmpty();
            assertThat(notes.linksFrom(RENAMED)).singleElement()
                    .satisfies(l -> assertThat(l.resolvedPath()).isEqualTo(DELTA));

            // a forced reindex scans the whole vault and finds the local note
            IngestReport full = producer.requestBody("direct:ingest", null, IngestReport.class);
            assertThat(full.changed()).isEqualTo(1);
            assertThat(pathsFor("quasarnib")).containsExactly(LOCAL);
        } finally {
            Files.deleteIfExists(local);
            producer.requestBody("direct:ingest", VAULT, IngestReport.class);
        }
        assertThat(pathsFor("quasarnib")).isEmpty();
    }

    private void sync(String commit) {
        String body = pushPayload("refs/heads/main", "0".repeat(40), commit);
        assertThat(webhook("push", UUID.randomUUID().toString(), body, signed(body)).getStatusCode().value())
                .isEqualTo(202);
        awaitSyncedTo(commit);
    }

    /** One commit on main from another clone: files written (added or modified) and files removed. */
    private static String commit(Map<String, String> write, List<String> remove, String message) throws Exception {
        try (Git git = otherClone()) {
            Path tree = git.getRepository().getWorkTree().toPath();
            for (var e : write.entrySet()) {
                Files.createDirectories(tree.resolve(e.getKey()).getParent());
                Files.writeString(tree.resolve(e.getKey()), e.getValue());
                git.add().addFilepattern(e.getKey()).call();
            }
            for (String path : remove) {
                git.rm().addFilepattern(path).call();
            }
            PersonIdent mate = new PersonIdent("Mate", "mate@example.org");
            String id = git.commit().setMessage(message).setAuthor(mate).setCommitter(mate).call().getName();
            git.push().setRemote("origin").add("main").call();
            return id;
        }
    }

    private Set<String> pathsFor(String word) {
        List<String> ids = lexical.search(word, SearchScope.all(), 10).stream().map(h -> h.chunkId()).toList();
        return Set.copyOf(notes.chunks(ids).stream().map(Chunk::path).toList());
    }
}
