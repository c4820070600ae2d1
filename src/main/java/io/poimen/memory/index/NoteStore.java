package io.poimen.memory.index;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ParsedNote;
import io.poimen.memory.vault.WikiLink;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Relational store of notes, chunks and wiki-links (JDBC; PostgreSQL in production, H2 embedded). */
public interface NoteStore {

    /** Stored note row. */
    record NoteRow(String path, String project, String title, String contentHash, List<String> tags,
                   List<String> aliases, int chunkCount, java.time.Instant updatedAt) {
    }

    /** path → content hash of every stored note. */
    Map<String, String> hashes();

    /** Replaces the notes, their chunks and their outgoing links in one transaction; {@code updatedAt} by path. */
    void saveAll(List<ParsedNote> notes, Map<String, java.time.Instant> updatedAt);

    default void save(ParsedNote note, java.time.Instant updatedAt) {
        if (note == null) {
            throw new IllegalArgumentException("note is required");
        }
        saveAll(List.of(note), java.util.Collections.singletonMap(note.path(), updatedAt)); // null is checked there
    }

    /** Deletes the note, its chunks and its outgoing links. */
    void delete(String path);

    Optional<NoteRow> note(String path);

    List<NoteRow> notes();

    /** Path → front matter (JSON values; dates as ISO text) of every stored note that has front matter. */
    Map<String, Map<String, Object>> frontMatters();

    /** When each stored note of {@code paths} last changed (its row's {@code updatedAt}); absent for others. */
    Map<String, java.time.Instant> updatedAt(Collection<String> paths);

    List<Chunk> chunks(Collection<String> chunkIds);

    List<Chunk> allChunks();

    /** The chunks of the notes at {@code paths}, by path and ordinal (none for a note that is not stored). */
    List<Chunk> chunksOfNotes(Collection<String> paths);

    List<WikiLink> links();

    /** The links written in the note at {@code sourcePath}, in the order stored. */
    List<WikiLink> linksFrom(String sourcePath);

    /** Rewrites resolved_path and link_type of every stored link (after the set of files changed). */
    void updateResolutions(List<WikiLink> resolved);
}
