package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.NoteStore.NoteRow;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.FrontMatter;
import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.ParsedNote;
import io.poimen.memory.vault.WikiLink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Behaviour every database behind {@link JdbcNoteStore} must show; subclasses supply a migrated database. */
abstract class NoteStoreContractTest {

    static final String AWKWARD = "a, b; \"quoted\" 'single' \\ back, ünïcødé ✓ 日本語 🙂";
    static final Instant T1 = Instant.parse("2025-03-04T05:06:07.123456Z");
    static final Instant T2 = Instant.parse("2025-11-30T23:59:59Z");

    private NoteStore store;

    /** A migrated database; the same one may be returned to every test (this class empties it first). */
    abstract DataSource dataSource();

    @BeforeEach
    void emptyTables() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        jdbc.update("delete from wiki_links");
        jdbc.update("delete from chunks");
        jdbc.update("delete from documents");
        store = new JdbcNoteStore(dataSource());
    }

    @Test
    void savedNoteReadsBackFieldForField() {
        ParsedNote note = note("projects/poimen/tools/kubectl.md", "poimen", 3, List.of("[[debugging]]"));

        store.save(note, T1);

        NoteRow row = store.note(note.path()).orElseThrow();
        assertThat(row).isEqualTo(new NoteRow(note.path(), "poimen", "Title " + AWKWARD, "hash-" + note.path(),
                List.of("k8s", "tag, with comma", AWKWARD), List.of("kubectl, alias", "kc \"quoted\""), 3, T1));
        assertThat(store.notes()).containsExactly(row);
    }

    @Test
    void frontMatterIsStoredAsJsonValuesAndReplacedWithTheNote() {
        ParsedNote plain = note("projects/poimen/plain.md", "poimen", 1, List.of());
        ParsedNote dated = note("projects/poimen/dated.md", "poimen", 1, List.of());
        Map<String, Object> raw = new java.util.LinkedHashMap<>();
        raw.put("status", AWKWARD);
        raw.put("priority", 2);
        raw.put("score", 1.5);
        raw.put("done", false);
        raw.put("due", java.util.Date.from(Instant.parse("2026-11-20T00:00:00Z")));
        raw.put("at", java.util.Date.from(T2));
        raw.put("owners", List.of("ann", 3));
        raw.put("meta", Map.of("team", "ops"));
        raw.put("empty", null);
        ParsedNote withFields = new ParsedNote(dated.path(), dated.project(), dated.title(), dated.contentHash(),
                new FrontMatter("T", List.of(), List.of(), raw, null), dated.links(), dated.chunks());

        store.saveAll(List.of(plain, withFields), Map.of(plain.path(), T1, dated.path(), T1));

        Map<String, Object> expected = new java.util.LinkedHashMap<>(raw);
        expected.put("due", "2026-11-20");
        expected.put("at", "2025-11-30T23:59:59Z");
        assertThat(store.frontMatters()).containsOnlyKeys(dated.path());
        assertThat(store.frontMatters().get(dated.path())).isEqualTo(expected);
        store.save(dated, T2);
        assertThat(store.frontMatters()).as("a note saved again without front matter has none").isEmpty();
    }

    @Test
    void chunksRoundTripExactlyIncludingPunctuationAndUnicode() {
        ParsedNote note = note("shared/concepts/retry.md", null, 4, List.of());

        store.save(note, T1);

        assertThat(store.allChunks()).containsExactlyElementsOf(note.chunks());
        assertThat(store.chunks(List.of(note.chunks().get(2).id(), note.chunks().get(0).id())))
                .containsExactlyInAnyOrder(note.chunks().get(2), note.chunks().get(0));
    }

    @Test
    void linksRoundTripExactlyAndDuplicateRawTextIsStoredOnce() {
        WikiLink plain = link("projects/p/a.md", "debugging", "debugging", null, null, null, false);
        WikiLink full = link("projects/p/a.md", "tools/kubectl#Logs, \"tail\"|kc, ✓", "tools/kubectl",
                "Logs, \"tail\"", null, "kc, ✓", false);
        WikiLink block = link("projects/p/a.md", "notes#^abc123", "notes", null, "abc123", null, true);
        WikiLink heading = link("projects/p/a.md", "#Local heading", "", "Local heading", null, null, false);
        WikiLink repeated = link("projects/p/a.md", "debugging", "debugging", null, null, null, true);
        ParsedNote base = note("projects/p/a.md", "p", 1, List.of());
        ParsedNote note = new ParsedNote(base.path(), base.project(), base.title(), base.contentHash(),
                base.frontMatter(), List.of(plain, full, block, heading, repeated), base.chunks());

        store.save(note, T1);

        assertThat(store.links()).containsExactly(plain, full, block, heading);
    }

    @Test
    void saveReplacesChunksAndLinksOfThatNoteOnly() {
        ParsedNote other = note("projects/p/other.md", "p", 2, List.of("[[a]]"));
        store.save(other, T1);
        store.save(note("projects/p/a.md", "p", 5, List.of("[[x]]", "[[y]]")), T1);

        ParsedNote replacement = note("projects/p/a.md", "p", 2, List.of("[[z]]"));
        store.save(replacement, T2);

        assertThat(store.note("projects/p/a.md").orElseThrow().chunkCount()).isEqualTo(2);
        assertThat(store.note("projects/p/a.md").orElseThrow().updatedAt()).isEqualTo(T2);
        assertThat(store.allChunks()).containsExactlyInAnyOrderElementsOf(concat(other.chunks(),
                replacement.chunks()));
        assertThat(store.links()).extracting(WikiLink::sourcePath, WikiLink::raw)
                .containsExactlyInAnyOrder(tuple("projects/p/other.md", "a"), tuple("projects/p/a.md", "z"));
    }

    @Test
    void saveAllWritesManyNotesInOneGoAndReplacesThoseStoredBefore() {
        ParsedNote untouched = note("projects/p/untouched.md", "p", 1, List.of("[[a]]"));
        store.save(untouched, T1);
        store.save(note("projects/p/a.md", "p", 4, List.of("[[old]]")), T1);
        ParsedNote a = note("projects/p/a.md", "p", 2, List.of("[[new]]"));
        ParsedNote shared = note("shared/concepts/b.md", null, 3, List.of("[[a]]", "[[c]]"));

        store.saveAll(List.of(a, shared), Map.of(a.path(), T2, shared.path(), T1));

        assertThat(store.notes()).extracting(NoteRow::path, NoteRow::project, NoteRow::chunkCount, NoteRow::updatedAt)
                .containsExactlyInAnyOrder(tuple("projects/p/a.md", "p", 2, T2), tuple("shared/concepts/b.md", null, 3, T1),
                        tuple("projects/p/untouched.md", "p", 1, T1));
        assertThat(store.updatedAt(List.of("projects/p/a.md", "shared/concepts/b.md", "projects/p/none.md")))
                .isEqualTo(Map.of("projects/p/a.md", T2, "shared/concepts/b.md", T1));
        assertThat(store.allChunks()).containsExactlyInAnyOrderElementsOf(
                concat(untouched.chunks(), concat(a.chunks(), shared.chunks())));
        assertThat(store.links()).extracting(WikiLink::sourcePath, WikiLink::target).containsExactlyInAnyOrder(
                tuple("projects/p/untouched.md", "a"), tuple("projects/p/a.md", "new"),
                tuple("shared/concepts/b.md", "a"), tuple("shared/concepts/b.md", "c"));
    }

    @Test
    void linksFromReadsTheLinksOfOneNoteOnly() {
        store.save(note("projects/p/a.md", "p", 1, List.of("[[x]]", "[[y]]")), T1);
        store.save(note("projects/p/b.md", "p", 1, List.of("[[z]]")), T1);

        assertThat(store.linksFrom("projects/p/a.md")).extracting(WikiLink::target).containsExactly("x", "y");
        assertThat(store.linksFrom("projects/p/missing.md")).isEmpty();
    }

    @Test
    void deleteRemovesNoteChunksAndLinksOfThatNoteOnly() {
        ParsedNote kept = note("projects/p/kept.md", "p", 2, List.of("[[gone]]"));
        store.save(kept, T1);
        store.save(note("projects/p/gone.md", "p", 3, List.of("[[kept]]")), T1);

        store.delete("projects/p/gone.md");

        assertThat(store.note("projects/p/gone.md")).isEmpty();
        assertThat(store.hashes()).containsOnlyKeys("projects/p/kept.md");
        assertThat(store.allChunks()).containsExactlyElementsOf(kept.chunks());
        assertThat(store.links()).extracting(WikiLink::sourcePath).containsExactly("projects/p/kept.md");
    }

    @Test
    void hashesMapEveryPathToItsContentHash() {
        store.save(note("projects/p/a.md", "p", 1, List.of()), T1);
        store.save(note("shared/b.md", null, 1, List.of()), T1);

        assertThat(store.hashes()).isEqualTo(Map.of(
                "projects/p/a.md", "hash-projects/p/a.md", "shared/b.md", "hash-shared/b.md"));
    }

    @Test
    void chunksByIdSpanManyInListsAndSkipUnknownIds() {
        ParsedNote big = note("projects/p/big.md", "p", 2 * JdbcNoteStore.IN_LIST_SIZE + 37, List.of());
        store.save(big, T1);
        List<String> ids = new ArrayList<>(big.chunks().stream().map(Chunk::id).toList());
        ids.add("projects/p/missing.md#0");
        ids.add(big.chunks().get(0).id());

        assertThat(store.chunks(ids)).containsExactlyInAnyOrderElementsOf(big.chunks());
        assertThat(store.chunks(List.of())).isEmpty();
    }

    @Test
    void updateResolutionsRewritesResolvedPathAndTypeOfMatchingLinks() {
        store.save(note("projects/p/a.md", "p", 1, List.of("[[b]]", "[[c, \"d\"]]")), T1);
        store.save(note("projects/p/b.md", "p", 1, List.of("[[b]]")), T1);
        List<WikiLink> stored = store.links();
        WikiLink aToB = stored.stream().filter(l -> l.sourcePath().equals("projects/p/a.md")
                && l.raw().equals("b")).findFirst().orElseThrow();
        WikiLink aToC = stored.stream().filter(l -> l.raw().startsWith("c")).findFirst().orElseThrow();

        store.updateResolutions(List.of(aToB.withResolution("projects/p/b.md", LinkType.MEMORY),
                aToC.withResolution("shared/concepts/c.md", LinkType.SHARED_CONCEPT)));

        assertThat(store.links()).containsExactly(
                aToB.withResolution("projects/p/b.md", LinkType.MEMORY),
                aToC.withResolution("shared/concepts/c.md", LinkType.SHARED_CONCEPT),
                stored.get(2));

        store.updateResolutions(List.of(aToB.withResolution(null, LinkType.UNKNOWN)));
        assertThat(store.links().get(0).resolved()).isFalse();
        assertThat(store.links().get(0).type()).isEqualTo(LinkType.UNKNOWN);
    }

    @Test
    void rejectedSaveKeepsThePreviousVersion() {
        ParsedNote original = note("projects/p/a.md", "p", 2, List.of("[[b]]"));
        store.save(original, T1);

        ParsedNote tooLongTitle = new ParsedNote(original.path(), "p", "x".repeat(5000), "new-hash",
                original.frontMatter(), List.of(), List.of());
        assertThatThrownBy(() -> store.save(tooLongTitle, T2)).isInstanceOf(RuntimeException.class);

        ParsedNote foreignChunk = new ParsedNote(original.path(), "p", "t", "new-hash", original.frontMatter(),
                List.of(), note("projects/p/other.md", "p", 1, List.of()).chunks());
        assertThatThrownBy(() -> store.save(foreignChunk, T2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("projects/p/other.md#0");

        assertThat(store.hashes()).containsEntry(original.path(), "hash-" + original.path());
        assertThat(store.allChunks()).containsExactlyElementsOf(original.chunks());
        assertThat(store.links()).extracting(WikiLink::raw).containsExactly("b");
    }

    @Test
    void noteWithoutChunksOrFrontMatterListsStoresEmptyLists() {
        ParsedNote bare = new ParsedNote("shared/empty.md", null, null, "h", FrontMatter.EMPTY, List.of(),
                List.of());

        store.save(bare, T2);

        assertThat(store.note("shared/empty.md")).contains(
                new NoteRow("shared/empty.md", null, null, "h", List.of(), List.of(), 0, T2));
    }

    static ParsedNote note(String path, String project, int chunks, List<String> links) {
        List<String> tags = List.of("k8s", "tag, with comma", AWKWARD);
        FrontMatter frontMatter = new FrontMatter("Title", List.of("kubectl, alias", "kc \"quoted\""),
                List.of("K8s"), Map.of(), null);
        List<Chunk> chunkList = IntStream.range(0, chunks).mapToObj(i -> {
            String heading = i == 0 ? "Title " + AWKWARD : "Heading " + i + ", \"q\"";
            return new Chunk(Chunk.idOf(path, i), path, project, i, heading,
                    List.of("Title " + AWKWARD, heading),
                    "Text of chunk " + i + ":\n\n```\nkubectl logs -f \"pod, x\"\n```\n" + AWKWARD, 17 + i,
                    new ChunkMetadata(heading, "First sentence, " + i + ".", List.of("kubectl", "logs, tail"),
                            i % 2 == 0 ? ChunkMetadata.TOOL : ChunkMetadata.ERROR),
                    tags);
        }).toList();
        List<WikiLink> linkList = links.stream().map(raw -> raw.substring(2, raw.length() - 2))
                .map(raw -> link(path, raw, raw, null, null, null, false)).toList();
        return new ParsedNote(path, project, "Title " + AWKWARD, "hash-" + path, frontMatter, linkList, chunkList);
    }

    static WikiLink link(String source, String raw, String target, String heading, String blockId, String alias,
                         boolean embed) {
        return new WikiLink(source, raw, target, heading, blockId, alias, embed, LinkType.UNKNOWN, null);
    }

    private static List<Chunk> concat(List<Chunk> a, List<Chunk> b) {
        List<Chunk> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static org.assertj.core.groups.Tuple tuple(Object... values) {
        return org.assertj.core.groups.Tuple.tuple(values);
    }
}
