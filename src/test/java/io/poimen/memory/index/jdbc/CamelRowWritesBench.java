package io.poimen.memory.index.jdbc;

import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.LatencyStats;
import io.poimen.memory.testsupport.TestPostgres;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.FrontMatter;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.ParsedNote;
import io.poimen.memory.vault.WikiLink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.sql.SqlComponent;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spring.spi.SpringTransactionPolicy;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Issue 32 item 3, ingest's note rows: the same batches of parsed notes written by {@link JdbcNoteStore#saveAll}
 * (JdbcTemplate batches in one TransactionTemplate) and by a transacted Camel route of camel-sql producers
 * ({@code batch=true}, {@code parametersCount} set so no statement asks the server for its parameter metadata,
 * one Spring transaction over the same delete + four inserts), alternating batch by batch (who goes first
 * alternates too), timed per batch. Before timing, it checks that both ways leave the same rows and that both roll
 * the whole batch back when an insert fails.
 *
 * <p>Notes are the BEIR corpus documents with a front-matter tag, a heading and a "Related" section of two wiki
 * links to other documents, so every table gets rows; every save replaces rows the other way wrote.
 *
 * <pre>java -cp "$(scripts/test-classpath.sh)" io.poimen.memory.index.jdbc.CamelRowWritesBench JDBC_URL DATASET NOTES ROUNDS</pre>
 */
public final class CamelRowWritesBench {
    static final String ROUTE = "direct:save-notes";
    private static final int BATCH = 500; // IngestPipeline's batch of notes
    private static final String WRITER = "bench";

    private CamelRowWritesBench() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty(TestPostgres.URL_PROPERTY, args[0]);
        BeirDataset set = BeirDataset.load(Path.of(args[1])).firstDocuments(Integer.parseInt(args[2]));
        int rounds = Integer.parseInt(args[3]);
        DataSource dataSource = TestPostgres.freshDatabase("camel_row_writes_bench");
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        List<ParsedNote> notes = parse(set);
        Map<String, Instant> updatedAt = new HashMap<>();
        Instant now = Instant.now();
        notes.forEach(n -> updatedAt.put(n.path(), now));
        List<List<ParsedNote>> batches = new ArrayList<>();
        for (int from = 0; from < notes.size(); from += BATCH) {
            batches.add(notes.subList(from, Math.min(notes.size(), from + BATCH)));
        }
        JdbcNoteStore store = new JdbcNoteStore(dataSource, WRITER);
        try (DefaultCamelContext camel = new DefaultCamelContext()) {
            SqlComponent sql = new SqlComponent();
            sql.setDataSource(dataSource);
            camel.addComponent("sql", sql);
            camel.getRegistry().bind("required",
                    new SpringTransactionPolicy(new DataSourceTransactionManager(dataSource)));
            camel.addRoutes(new NoteRowsRoute());
            camel.start();
            ProducerTemplate producer = camel.createProducerTemplate();
            Writer viaStore = batch -> store.saveAll(batch, updatedAt);
            Writer viaCamel = batch -> producer.requestBody(ROUTE, new Save(batch, updatedAt));

            check(jdbc, batches.get(0), viaStore, viaCamel);

            LatencyStats storeMs = new LatencyStats();
            LatencyStats camelMs = new LatencyStats();
            List<Double> camelMinusStore = new ArrayList<>(); // per batch and round: the pair ran back to back
            List<String> loads = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                boolean measured = r > 0; // round 0 warms both paths up
                String loadBefore = loadAverage();
                for (int i = 0; i < batches.size(); i++) {
                    double[] pair = new double[2];
                    for (int side = 0; side < 2; side++) {
                        boolean camelSide = (r + i + side) % 2 == 0;
                        long t0 = System.nanoTime();
                        (camelSide ? viaCamel : viaStore).write(batches.get(i));
                        double ms = (System.nanoTime() - t0) / 1e6;
                        if (measured) {
                            (camelSide ? camelMs : storeMs).add(ms);
                            pair[camelSide ? 1 : 0] = ms;
                        }
                    }
                    if (measured) {
                        camelMinusStore.add(pair[1] - pair[0]);
                    }
                }
                loads.add(loadBefore + " → " + loadAverage());
            }
            Counts counts = counts(jdbc);
            System.out.printf("%d notes in batches of %d (%d chunks, %d links per pass), %d rounds measured after"
                            + " 1 warm-up, each batch written both ways per round%n", notes.size(), BATCH,
                    counts.chunks, counts.links, rounds - 1);
            System.out.printf("%-44s %9s %9s %9s%n", "path, ms per batch", "p50", "p95", "mean");
            print("JdbcNoteStore.saveAll (JdbcTemplate)", storeMs);
            print("camel-sql, transacted route (batch=true)", camelMs);
            List<Double> sorted = camelMinusStore.stream().sorted().toList();
            System.out.printf("camel-sql minus JdbcNoteStore, same batch back to back: median %+.1f ms,"
                            + " camel-sql slower in %d of %d pairs%n", sorted.get(sorted.size() / 2),
                    sorted.stream().filter(d -> d > 0).count(), sorted.size());
            System.out.println("load average (1 min, before → after each round): " + String.join(", ", loads));
        }
    }

    /** One way of writing a batch of notes. */
    @FunctionalInterface
    interface Writer {
        void write(List<ParsedNote> batch) throws Exception;
    }

    /** What the route receives: as {@link JdbcNoteStore#saveAll}'s arguments. */
    record Save(List<ParsedNote> notes, Map<String, Instant> updatedAt) {
    }

    /**
     * The same rows as {@link JdbcNoteStore#saveAll} through camel-sql: one transaction (the route's), the old rows of
     * the notes deleted, then documents, chunks, wiki_links and index_changes inserted, each as one JDBC batch.
     */
    static final class NoteRowsRoute extends RouteBuilder {
        private static String sql(String statement, int parameters) {
            return "sql:" + statement + "?batch=true&parametersCount=" + parameters;
        }

        @Override
        public void configure() {
            from(ROUTE).routeId("bench-save-notes")
                    .transacted("required")
                    .process(e -> e.setProperty("rows", NoteRows.of(e.getMessage().getBody(Save.class))))
                    .setBody(e -> rows(e).paths())
                    .to(sql("delete from wiki_links where source_path = :#path", 1))
                    .to(sql("delete from chunks where path = :#path", 1))
                    .to(sql("delete from documents where path = :#path", 1))
                    .setBody(e -> rows(e).documents())
                    .to(sql("insert into documents (path, project, title, content_hash, tags, aliases, chunk_count,"
                            + " updated_at, indexed_at, front_matter) values (:#path, :#project, :#title,"
                            + " :#content_hash, :#tags, :#aliases, :#chunk_count, :#updated_at, :#indexed_at,"
                            + " :#front_matter)", 10))
                    .setBody(e -> rows(e).chunks())
                    .to(sql("insert into chunks (id, path, project, ordinal, heading, breadcrumb, content, tokens,"
                            + " first_sentence, key_terms, category, tags) values (:#id, :#path, :#project, :#ordinal,"
                            + " :#heading, :#breadcrumb, :#content, :#tokens, :#first_sentence, :#key_terms,"
                            + " :#category, :#tags)", 12))
                    .setBody(e -> rows(e).links())
                    .to(sql("insert into wiki_links (project, source_path, target_path, link_target, heading, block_id,"
                            + " alias, embed, link_type, resolved_path) values (:#project, :#source_path,"
                            + " :#target_path, :#link_target, :#heading, :#block_id, :#alias, :#embed, :#link_type,"
                            + " :#resolved_path)", 10))
                    .setBody(e -> rows(e).changes())
                    .to(sql("insert into index_changes (path, writer) values (:#path, :#writer)", 2));
        }

        private static NoteRows rows(Exchange exchange) {
            return exchange.getProperty("rows", NoteRows.class);
        }
    }

    /** A batch's rows as camel-sql's named parameters, with JdbcNoteStore's encodings. */
    record NoteRows(List<Map<String, Object>> paths, List<Map<String, Object>> documents,
                    List<Map<String, Object>> chunks, List<Map<String, Object>> links,
                    List<Map<String, Object>> changes) {
        private static final JsonStringList JSON = new JsonStringList();
        private static final JsonFrontMatter FRONT_MATTER = new JsonFrontMatter();

        static NoteRows of(Save save) {
            LocalDateTime indexedAt = utc(Instant.now());
            List<Map<String, Object>> paths = new ArrayList<>();
            List<Map<String, Object>> documents = new ArrayList<>();
            List<Map<String, Object>> chunks = new ArrayList<>();
            List<Map<String, Object>> links = new ArrayList<>();
            List<Map<String, Object>> changes = new ArrayList<>();
            for (ParsedNote note : save.notes()) {
                paths.add(row("path", note.path()));
                changes.add(row("path", note.path(), "writer", WRITER));
                FrontMatter frontMatter = note.frontMatter() == null ? FrontMatter.EMPTY : note.frontMatter();
                documents.add(row("path", note.path(), "project", note.project(), "title", note.title(),
                        "content_hash", note.contentHash(), "tags", JSON.write(noteTags(note, frontMatter)),
                        "aliases", JSON.write(frontMatter.aliases()), "chunk_count", note.chunks().size(),
                        "updated_at", utc(save.updatedAt().get(note.path())), "indexed_at", indexedAt,
                        "front_matter", FRONT_MATTER.write(frontMatter.raw())));
                for (Chunk chunk : note.chunks()) {
                    ChunkMetadata metadata = chunk.metadata();
                    chunks.add(row("id", chunk.id(), "path", chunk.path(), "project", chunk.project(),
                            "ordinal", chunk.ordinal(), "heading", chunk.heading(),
                            "breadcrumb", JSON.write(chunk.breadcrumb()), "content", chunk.text(),
                            "tokens", chunk.tokens(),
                            "first_sentence", metadata == null ? null : metadata.firstSentence(),
                            "key_terms", metadata == null ? null : JSON.write(metadata.keyTerms()),
                            "category", metadata == null ? null : metadata.category(),
                            "tags", JSON.write(chunk.tags())));
                }
                Map<String, WikiLink> firstByRaw = new LinkedHashMap<>();
                note.links().forEach(l -> firstByRaw.putIfAbsent(l.raw(), l));
                for (WikiLink link : firstByRaw.values()) {
                    links.add(row("project", note.project(), "source_path", link.sourcePath(),
                            "target_path", link.raw(), "link_target", link.target(), "heading", link.heading(),
                            "block_id", link.blockId(), "alias", link.alias(), "embed", link.embed(),
                            "link_type", link.type() == null ? null : link.type().dbValue(),
                            "resolved_path", link.resolvedPath()));
                }
            }
            return new NoteRows(paths, documents, chunks, links, changes);
        }

        private static Map<String, Object> row(Object... keysAndValues) {
            Map<String, Object> row = new HashMap<>(); // values may be null
            for (int i = 0; i < keysAndValues.length; i += 2) {
                row.put((String) keysAndValues[i], keysAndValues[i + 1]);
            }
            return row;
        }

        private static List<String> noteTags(ParsedNote note, FrontMatter frontMatter) {
            if (note.chunks().isEmpty()) {
                return frontMatter.tags();
            }
            Set<String> tags = new LinkedHashSet<>();
            note.chunks().stream().filter(c -> c.tags() != null).forEach(c -> tags.addAll(c.tags()));
            return List.copyOf(tags);
        }

        private static LocalDateTime utc(Instant instant) {
            return LocalDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
        }
    }

    private static List<ParsedNote> parse(BeirDataset set) throws Exception {
        NoteParser parser = NoteParser.withDefaults();
        List<BeirDataset.Doc> docs = set.corpus();
        List<ParsedNote> notes = new ArrayList<>();
        for (int i = 0; i < docs.size(); i++) {
            BeirDataset.Doc d = docs.get(i);
            String markdown = "---\ntags: [bench]\n---\n# " + (d.title().isBlank() ? "Passage " + d.id() : d.title())
                    + "\n\n" + d.text() + "\n\n## Related\n\nSee [[" + name(docs.get((i + 1) % docs.size()))
                    + "]] and [[" + name(docs.get((i + 7) % docs.size())) + "]].\n";
            String path = "projects/bench/docs/" + name(d) + ".md";
            notes.add(parser.parse(path, markdown.getBytes(StandardCharsets.UTF_8)));
        }
        return notes;
    }

    private static String name(BeirDataset.Doc d) {
        return d.id().replaceAll("[^A-Za-z0-9_-]", "_");
    }

    /**
     * Both ways leave the same rows for a batch, and both undo the whole batch (deletes included) when an insert
     * fails: a duplicated chunk id breaks the chunks insert after the deletes and the documents insert ran.
     */
    private static void check(JdbcTemplate jdbc, List<ParsedNote> batch, Writer viaStore, Writer viaCamel)
            throws Exception {
        viaStore.write(batch);
        String byStore = fingerprint(jdbc);
        viaCamel.write(batch);
        String byCamel = fingerprint(jdbc);
        if (!byStore.equals(byCamel)) {
            throw new IllegalStateException("the two ways wrote different rows:\n" + byStore + "\n" + byCamel);
        }
        ParsedNote first = batch.get(0);
        List<Chunk> twice = new ArrayList<>(first.chunks());
        twice.add(first.chunks().get(0));
        List<ParsedNote> broken = new ArrayList<>(batch);
        broken.set(0, new ParsedNote(first.path(), first.project(), first.title(), "changed", first.frontMatter(),
                first.links(), twice));
        for (Writer writer : List.of(viaStore, viaCamel)) {
            long changes = jdbc.queryForObject("select count(*) from index_changes", Long.class);
            boolean failed = false;
            try {
                writer.write(broken);
            } catch (RuntimeException expected) {
                failed = true;
            }
            if (!failed) {
                throw new IllegalStateException("a batch with a duplicated chunk id was written");
            }
            if (!fingerprint(jdbc).equals(byStore)
                    || jdbc.queryForObject("select count(*) from index_changes", Long.class) != changes) {
                throw new IllegalStateException("a failed batch left rows behind");
            }
        }
        System.out.println("check: same rows both ways; a failing insert rolls the whole batch back both ways");
    }

    /** The rows of every table the write touches, without generated ids and the indexing time. */
    private static String fingerprint(JdbcTemplate jdbc) {
        return jdbc.queryForObject("select concat_ws(' ',"
                + " (select count(*) || ':' || md5(string_agg(x::text, E'\\n' order by x::text)) from (select path,"
                + " project, title, content_hash, tags, aliases, chunk_count, updated_at, front_matter"
                + " from documents) x),"
                + " (select count(*) || ':' || md5(string_agg(x::text, E'\\n' order by x::text)) from (select * from"
                + " chunks) x),"
                + " (select count(*) || ':' || md5(string_agg(x::text, E'\\n' order by x::text)) from (select project,"
                + " source_path, target_path, link_target, link_type, resolved_path, heading, block_id, alias, embed"
                + " from wiki_links) x))", String.class);
    }

    private record Counts(long chunks, long links) {
    }

    private static Counts counts(JdbcTemplate jdbc) {
        return new Counts(jdbc.queryForObject("select count(*) from chunks", Long.class),
                jdbc.queryForObject("select count(*) from wiki_links", Long.class));
    }

    private static String loadAverage() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    private static void print(String name, LatencyStats s) {
        System.out.printf("%-44s %9.1f %9.1f %9.1f%n", name, s.percentile(50), s.percentile(95), s.mean());
    }
}
