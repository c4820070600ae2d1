package io.poimen.memory.index.jdbc;

import io.poimen.memory.index.NoteStore;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.FrontMatter;
import io.poimen.memory.vault.LinkType;
import io.poimen.memory.vault.ParsedNote;
import io.poimen.memory.vault.WikiLink;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link NoteStore} over plain JDBC, for PostgreSQL and H2 ({@code MODE=PostgreSQL}); schema in
 * {@code db/migration/common/V1__notes.sql}.
 *
 * <p>List fields are stored as JSON arrays. Timestamps are stored as UTC, to the microsecond. A note's tags are the
 * normalized tags its chunks carry (front matter and inline), or its front-matter tags when it has no chunks.
 * Links with the same raw text in one note are stored once (the first occurrence), as the table's unique key
 * {@code (project, source_path, target_path)} requires.
 */
public class JdbcNoteStore implements NoteStore {

    /** Ids per {@code IN (...)} list when loading chunks by id. */
    static final int IN_LIST_SIZE = 500;
    private static final int BATCH_SIZE = 500;

    private static final String NOTE_COLUMNS =
            "path, project, title, content_hash, tags, aliases, chunk_count, updated_at";
    private static final String CHUNK_COLUMNS =
            "id, path, project, ordinal, heading, breadcrumb, content, tokens, first_sentence, key_terms, category, tags";
    private static final String LINK_COLUMNS =
            "source_path, target_path, link_target, heading, block_id, alias, embed, link_type, resolved_path";
    /** The statements that find a note's links by its path alone: index wiki_links_source_target_idx serves them. */
    static final String LINKS_FROM = "select " + LINK_COLUMNS + " from wiki_links where source_path = ? order by id";
    static final String DELETE_LINKS_FROM = "delete from wiki_links where source_path = ?";
    static final String UPDATE_RESOLUTION =
            "update wiki_links set resolved_path = ?, link_type = ? where source_path = ? and target_path = ?";

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final TransactionTemplate tx;
    private final JsonStringList json = new JsonStringList();
    private final JsonFrontMatter frontMatterJson = new JsonFrontMatter();
    /** Recorded in {@code index_changes} with every write, so other replicas know what to reload. */
    private final String writer;

    public JdbcNoteStore(DataSource dataSource) {
        this(dataSource, "local");
    }

    public JdbcNoteStore(DataSource dataSource, String writer) {
        this.writer = writer;
        this.jdbc = new JdbcTemplate(dataSource);
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    @Override
    public Map<String, String> hashes() {
        Map<String, String> hashes = new LinkedHashMap<>();
        jdbc.query("select path, content_hash from documents order by path",
                rs -> {
                    hashes.put(rs.getString(1), rs.getString(2));
                });
        return hashes;
    }

    // JdbcTemplate, not camel-sql producers in a transacted route: same delete + four batch inserts in one transaction,
    // 500-note batches alternating, p50 468 / 577 ms here against 505 / 602 ms there, slower in 197 of 300 back-to-back
    // pairs (CamelRowWritesBench, docs/operations.md), and the rows would still be built in Java (2026-12-05)
    @Override
    public void saveAll(List<ParsedNote> notes, Map<String, Instant> updatedAt) {
        notes.forEach(n -> validate(n, updatedAt.get(n.path())));
        List<String> paths = notes.stream().map(ParsedNote::path).toList();
        tx.executeWithoutResult(status -> {
            deleteRows(paths);
            insertNotes(notes, updatedAt);
            insertChunks(notes.stream().flatMap(n -> n.chunks().stream()).toList());
            insertLinks(notes);
            recordChanges(paths);
        });
    }

    @Override
    public void delete(String path) {
        tx.executeWithoutResult(status -> {
            deleteRows(List.of(path));
            recordChanges(List.of(path));
        });
    }

    /** In the writing transaction: the notes (or, for a null path, the link resolutions) this write changed. */
    private void recordChanges(List<String> paths) {
        jdbc.batchUpdate("insert into index_changes (path, writer) values (?, ?)", paths, BATCH_SIZE, (ps, path) -> {
            ps.setString(1, path);
            ps.setString(2, writer);
        });
    }

    @Override
    public Optional<NoteRow> note(String path) {
        return jdbc.query("select " + NOTE_COLUMNS + " from documents where path = ?", this::noteRow, path)
                .stream().findFirst();
    }

    @Override
    public List<NoteRow> notes() {
        return jdbc.query("select " + NOTE_COLUMNS + " from documents order by path", this::noteRow);
    }

    @Override
    public Map<String, Map<String, Object>> frontMatters() {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        jdbc.query("select path, front_matter from documents where front_matter is not null order by path",
                rs -> {
                    out.put(rs.getString(1), frontMatterJson.read(rs.getString(2)));
                });
        return out;
    }

    @Override
    public Map<String, Instant> updatedAt(Collection<String> paths) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(paths));
        Map<String, Instant> out = new LinkedHashMap<>();
        for (int from = 0; from < distinct.size(); from += IN_LIST_SIZE) {
            named.query("select path, updated_at from documents where path in (:paths)",
                    Map.of("paths", distinct.subList(from, Math.min(distinct.size(), from + IN_LIST_SIZE))),
                    rs -> {
                        out.put(rs.getString(1), instant(rs.getObject(2, LocalDateTime.class)));
                    });
        }
        return out;
    }

    @Override
    public List<Chunk> chunks(Collection<String> chunkIds) {
        return chunksWhereIn("id", chunkIds, "");
    }

    @Override
    public List<Chunk> chunksOfNotes(Collection<String> paths) {
        return chunksWhereIn("path", paths, " order by path, ordinal");
    }

    /** Chunks whose {@code column} is one of {@code values}, {@value #IN_LIST_SIZE} values per query. */
    private List<Chunk> chunksWhereIn(String column, Collection<String> values, String order) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(values));
        List<Chunk> found = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += IN_LIST_SIZE) {
            List<String> slice = distinct.subList(from, Math.min(distinct.size(), from + IN_LIST_SIZE));
            found.addAll(named.query("select " + CHUNK_COLUMNS + " from chunks where " + column + " in (:values)"
                    + order, Map.of("values", slice), this::chunk));
        }
        return found;
    }

    @Override
    public List<Chunk> allChunks() {
        return jdbc.query("select " + CHUNK_COLUMNS + " from chunks order by path, ordinal", this::chunk);
    }

    @Override
    public List<WikiLink> links() {
        return jdbc.query("select " + LINK_COLUMNS + " from wiki_links order by source_path, id", this::link);
    }

    @Override
    public List<WikiLink> linksFrom(String sourcePath) {
        return jdbc.query(LINKS_FROM, this::link, sourcePath);
    }

    @Override
    public void updateResolutions(List<WikiLink> resolved) {
        tx.executeWithoutResult(status -> {
            jdbc.batchUpdate(UPDATE_RESOLUTION, resolved, BATCH_SIZE, (ps, link) -> {
                ps.setString(1, link.resolvedPath());
                ps.setString(2, typeValue(link.type()));
                ps.setString(3, link.sourcePath());
                ps.setString(4, link.raw());
            });
            recordChanges(Collections.singletonList(null));
        });
    }

    private static void validate(ParsedNote note, Instant updatedAt) {
        if (note == null || note.path() == null || note.path().isBlank()) {
            throw new IllegalArgumentException("note path is required");
        }
        if (note.contentHash() == null) {
            throw new IllegalArgumentException("note " + note.path() + " has no content hash");
        }
        if (updatedAt == null) {
            throw new IllegalArgumentException("note " + note.path() + ": updatedAt is required");
        }
        for (Chunk chunk : note.chunks()) {
            if (!note.path().equals(chunk.path())) {
                throw new IllegalArgumentException("chunk " + chunk.id() + " belongs to " + chunk.path()
                        + ", not to the note being saved (" + note.path() + ")");
            }
        }
        for (WikiLink link : note.links()) {
            if (!note.path().equals(link.sourcePath())) {
                throw new IllegalArgumentException("link " + link.written() + " comes from " + link.sourcePath()
                        + ", not from the note being saved (" + note.path() + ")");
            }
            if (link.raw() == null) {
                throw new IllegalArgumentException("a link in " + note.path() + " has no raw text");
            }
        }
    }

    private static List<WikiLink> distinctByRaw(List<WikiLink> links) {
        Map<String, WikiLink> first = new LinkedHashMap<>();
        for (WikiLink link : links) {
            first.putIfAbsent(link.raw(), link);
        }
        return List.copyOf(first.values());
    }

    private void deleteRows(List<String> paths) {
        for (String delete : List.of(DELETE_LINKS_FROM, "delete from chunks where path = ?",
                "delete from documents where path = ?")) {
            jdbc.batchUpdate(delete, paths, BATCH_SIZE, (ps, path) -> ps.setString(1, path));
        }
    }

    private void insertNotes(List<ParsedNote> notes, Map<String, Instant> updatedAt) {
        LocalDateTime indexedAt = utc(Instant.now());
        jdbc.batchUpdate("insert into documents (path, project, title, content_hash, tags, aliases, chunk_count,"
                        + " updated_at, indexed_at, front_matter) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                notes, BATCH_SIZE, (ps, note) -> {
                    FrontMatter frontMatter = note.frontMatter() == null ? FrontMatter.EMPTY : note.frontMatter();
                    ps.setString(1, note.path());
                    ps.setString(2, note.project());
                    ps.setString(3, note.title());
                    ps.setString(4, note.contentHash());
                    ps.setString(5, json.write(noteTags(note, frontMatter)));
                    ps.setString(6, json.write(frontMatter.aliases()));
                    ps.setInt(7, note.chunks().size());
                    ps.setObject(8, utc(updatedAt.get(note.path())));
                    ps.setObject(9, indexedAt);
                    ps.setString(10, frontMatterJson.write(frontMatter.raw()));
                });
    }

    private static List<String> noteTags(ParsedNote note, FrontMatter frontMatter) {
        if (note.chunks().isEmpty()) {
            return frontMatter.tags();
        }
        Set<String> tags = new LinkedHashSet<>();
        for (Chunk chunk : note.chunks()) {
            if (chunk.tags() != null) {
                tags.addAll(chunk.tags());
            }
        }
        return List.copyOf(tags);
    }

    private void insertChunks(List<Chunk> chunks) {
        jdbc.batchUpdate("insert into chunks (" + CHUNK_COLUMNS + ") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                chunks, BATCH_SIZE, (ps, chunk) -> {
                    ChunkMetadata metadata = chunk.metadata();
                    ps.setString(1, chunk.id());
                    ps.setString(2, chunk.path());
                    ps.setString(3, chunk.project());
                    ps.setInt(4, chunk.ordinal());
                    ps.setString(5, chunk.heading());
                    ps.setString(6, json.write(chunk.breadcrumb()));
                    ps.setString(7, chunk.text());
                    ps.setInt(8, chunk.tokens());
                    ps.setString(9, metadata == null ? null : metadata.firstSentence());
                    ps.setString(10, metadata == null ? null : json.write(metadata.keyTerms()));
                    ps.setString(11, metadata == null ? null : metadata.category());
                    ps.setString(12, json.write(chunk.tags()));
                });
    }

    private void insertLinks(List<ParsedNote> notes) {
        // the project of a shared note is null, which Map.entry does not take
        List<Map.Entry<String, WikiLink>> links = new ArrayList<>();
        for (ParsedNote note : notes) {
            distinctByRaw(note.links()).forEach(l -> links.add(new AbstractMap.SimpleEntry<>(note.project(), l)));
        }
        jdbc.batchUpdate("insert into wiki_links (project, " + LINK_COLUMNS + ")"
                        + " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                links, BATCH_SIZE, (ps, entry) -> {
                    WikiLink link = entry.getValue();
                    ps.setString(1, entry.getKey());
                    ps.setString(2, link.sourcePath());
                    ps.setString(3, link.raw());
                    ps.setString(4, link.target());
                    ps.setString(5, link.heading());
                    ps.setString(6, link.blockId());
                    ps.setString(7, link.alias());
                    ps.setBoolean(8, link.embed());
                    ps.setString(9, typeValue(link.type()));
                    ps.setString(10, link.resolvedPath());
                });
    }

    private NoteRow noteRow(ResultSet rs, int row) throws SQLException {
        return new NoteRow(rs.getString("path"), rs.getString("project"), rs.getString("title"),
                rs.getString("content_hash"), json.read(rs.getString("tags")), json.read(rs.getString("aliases")),
                rs.getInt("chunk_count"), instant(rs.getObject("updated_at", LocalDateTime.class)));
    }

    private Chunk chunk(ResultSet rs, int row) throws SQLException {
        String heading = rs.getString("heading");
        ChunkMetadata metadata = new ChunkMetadata(heading, rs.getString("first_sentence"),
                json.read(rs.getString("key_terms")), rs.getString("category"));
        return new Chunk(rs.getString("id"), rs.getString("path"), rs.getString("project"), rs.getInt("ordinal"),
                heading, json.read(rs.getString("breadcrumb")), rs.getString("content"), rs.getInt("tokens"),
                metadata, json.read(rs.getString("tags")));
    }

    private WikiLink link(ResultSet rs, int row) throws SQLException {
        String type = rs.getString("link_type");
        return new WikiLink(rs.getString("source_path"), rs.getString("target_path"), rs.getString("link_target"),
                rs.getString("heading"), rs.getString("block_id"), rs.getString("alias"), rs.getBoolean("embed"),
                type == null ? null : LinkType.valueOf(type.toUpperCase(Locale.ROOT)),
                rs.getString("resolved_path"));
    }

    private static String typeValue(LinkType type) {
        return type == null ? null : type.dbValue();
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    private static Instant instant(LocalDateTime utc) {
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }
}
