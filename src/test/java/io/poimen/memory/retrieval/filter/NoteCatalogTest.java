package io.poimen.memory.retrieval.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.jdbc.JdbcNoteStore;
import io.poimen.memory.testsupport.TestH2;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.ParsedNote;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The facts the filters read, through the real parser and note store (front matter stored as JSON). */
class NoteCatalogTest {
    static final Instant COMMITTED = Instant.parse("2026-03-01T10:00:00Z");
    static final String DATED = "projects/p/dated.md";
    static final String UNDATED = "projects/p/undated.md";

    static ParsedNote parse(String path, String text) throws Exception {
        return NoteParser.withDefaults().parse(path, text.getBytes(StandardCharsets.UTF_8));
    }

    JdbcNoteStore store() throws Exception {
        JdbcNoteStore notes = new JdbcNoteStore(TestH2.migrated("note_catalog"));
        notes.saveAll(List.of(
                parse(DATED, "---\ndate: 2025-12-24\nstatus: Draft\npriority: 2\nreviewed: 2026-01-02T08:30:00Z\n"
                        + "owners: [ann, bo]\nmeta: {team: ops}\ntags: [plan]\n---\n# Dated\n\nBody #inline/tag\n"),
                parse(UNDATED, "# Undated\n\nNo front matter.\n")),
                Map.of(DATED, COMMITTED, UNDATED, COMMITTED));
        return notes;
    }

    static GraphService graph() {
        GraphService graph = new GraphService();
        graph.replace(LinkGraph.of(List.of(DATED, UNDATED), List.of()));
        return graph;
    }

    @Test
    void frontMatterIsStoredAsJsonValuesAndTagsIncludeInlineOnes() throws Exception {
        NoteFacts dated = new NoteCatalog(graph(), store(), "").facts().get(DATED);
        assertThat(dated.fields()).containsEntry("date", "2025-12-24").containsEntry("status", "Draft")
                .containsEntry("priority", 2).containsEntry("reviewed", "2026-01-02T08:30:00Z")
                .containsEntry("owners", List.of("ann", "bo")).containsEntry("meta", Map.of("team", "ops"));
        assertThat(dated.tags()).contains("plan", "inline/tag");
        assertThat(dated.changed()).as("no date field configured: the stored note time").isEqualTo(COMMITTED);
    }

    @Test
    void aConfiguredDateFieldIsTheNoteTimeWhereTheNoteHasIt() throws Exception {
        Map<String, NoteFacts> facts = new NoteCatalog(graph(), store(), "date").facts();
        assertThat(facts.get(DATED).changed()).isEqualTo(Instant.parse("2025-12-24T00:00:00Z"));
        assertThat(facts.get(UNDATED).changed()).isEqualTo(COMMITTED);
        assertThat(new NoteCatalog(graph(), store(), "reviewed").facts().get(DATED).changed())
                .isEqualTo(Instant.parse("2026-01-02T08:30:00Z"));
    }

    @Test
    void theFactsAreReadAgainOnlyWhenTheGraphChanges() throws Exception {
        JdbcNoteStore notes = store();
        GraphService graph = graph();
        NoteCatalog catalog = new NoteCatalog(graph, notes, "");
        assertThat(catalog.facts().get(DATED).fields()).containsEntry("status", "Draft");
        notes.save(parse(DATED, "---\nstatus: done\n---\n# Dated\n"), COMMITTED);
        assertThat(catalog.facts().get(DATED).fields()).as("same graph version").containsEntry("status", "Draft");
        graph.replace(graph.current());
        assertThat(catalog.facts().get(DATED).fields()).containsEntry("status", "done");
    }
}
