package io.poimen.memory.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.jdbc.JdbcNoteStore;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.vault.NoteParser;
import io.poimen.memory.vault.ParsedNote;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** A replica following another replica's note-store writes through {@code index_changes} (H2 here). */
class IndexFollowerTest {
    private final NoteParser parser = NoteParser.withDefaults();
    private JdbcDataSource db;
    private JdbcNoteStore writer;
    private TfIdfIndex tfidf;
    private GraphService graph;
    private IndexFollower follower;

    @BeforeEach
    void stores() {
        db = new JdbcDataSource();
        db.setURL("jdbc:h2:mem:follower_" + System.nanoTime() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(db).locations("classpath:db/migration/common", "classpath:db/migration/h2")
                .load().migrate();
        writer = new JdbcNoteStore(db, "writer");
        tfidf = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        graph = new GraphService();
        follower = new IndexFollower(db, new JdbcNoteStore(db, "follower"), tfidf, graph, "follower");
        follower.startAfter(follower.mark());
    }

    private ParsedNote note(String path, String text) throws Exception {
        return parser.parse(path, text.getBytes(StandardCharsets.UTF_8));
    }

    private void save(ParsedNote n) {
        writer.saveAll(List.of(n), Map.of(n.path(), Instant.parse("2026-01-01T00:00:00Z")));
    }

    @Test
    void notesWrittenElsewhereReachTheTfIdfIndexAndTheGraphAndDeletionsLeaveThem() throws Exception {
        save(note("projects/p/a.md", "# Alpha\n\nThe quorumix daemon links to [[b]].\n"));
        save(note("projects/p/b.md", "# Beta\n\nPlain words.\n"));
        assertThat(follower.poll()).isEqualTo(2);
        assertThat(tfidf.search("quorumix", "p", null, 5)).hasSize(1);
        assertThat(tfidf.metadata(tfidf.search("quorumix", "p", null, 5).get(0).chunkId()).noteTimeMillis())
                .as("the note row's time, for the recency factor").isEqualTo(Instant.parse("2026-01-01T00:00:00Z")
                        .toEpochMilli());
        assertThat(graph.current().notes()).containsExactlyInAnyOrder("projects/p/a.md", "projects/p/b.md");
        assertThat(follower.poll()).as("nothing new").isZero();

        save(note("projects/p/a.md", "# Alpha\n\nNow about zentrox only.\n"));
        writer.delete("projects/p/b.md");
        assertThat(follower.poll()).isEqualTo(2);
        assertThat(tfidf.search("quorumix", "p", null, 5)).isEmpty();
        assertThat(tfidf.search("zentrox", "p", null, 5)).hasSize(1);
        assertThat(tfidf.search("plain words", "p", null, 5)).isEmpty();
        assertThat(graph.current().notes()).containsExactly("projects/p/a.md");
    }

    /** A replica that starts loads each note's time with its chunks (the recency factor reads no row later). */
    @Test
    void aStartingReplicaLoadsTheNoteTimesWithTheChunks() throws Exception {
        save(note("projects/p/a.md", "# Alpha\n\nThe quorumix daemon.\n"));
        TfIdfIndex fresh = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        GraphService freshGraph = new GraphService();
        JdbcNoteStore store = new JdbcNoteStore(db, "starting");
        new IndexBootstrap(store, fresh, freshGraph, null, null,
                new IndexFollower(db, store, fresh, freshGraph, "starting"), null).loadFromStore();
        assertThat(fresh.metadata(fresh.search("quorumix", "p", null, 5).get(0).chunkId()).noteTimeMillis())
                .isEqualTo(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
    }

    @Test
    void aReplicaSkipsItsOwnWrites() throws Exception {
        IndexFollower self = new IndexFollower(db, writer, tfidf, graph, "writer");
        self.startAfter(self.mark());
        save(note("projects/p/a.md", "# Alpha\n\nOwn write.\n"));
        assertThat(self.poll()).isZero();
        assertThat(tfidf.size()).as("the writer indexes its own notes itself").isZero();
    }

    @Test
    void aChangeCommittedAfterAHigherOneIsStillApplied() throws Exception {
        save(note("projects/p/late.md", "# Late\n\nThe latecomer note.\n"));
        JdbcTemplate jdbc = new JdbcTemplate(db);
        long low = follower.mark();
        jdbc.update("delete from index_changes"); // as if its transaction had not committed yet
        jdbc.update("insert into index_changes (id, path, writer) values (?, 'projects/p/other.md', 'writer')", low + 5);
        follower.poll();
        assertThat(follower.gaps()).contains(low, low + 4);
        assertThat(tfidf.search("latecomer", "p", null, 5)).isEmpty();

        jdbc.update("insert into index_changes (id, path, writer) values (?, 'projects/p/late.md', 'writer')", low);
        assertThat(follower.poll()).isEqualTo(1);
        assertThat(tfidf.search("latecomer", "p", null, 5)).hasSize(1);
        assertThat(follower.gaps()).doesNotContain(low);
    }

    @Test
    void theWorkingCopyPullsOnceForABurstOfChanges() throws Exception {
        assertThat(follower.pullDue()).isFalse();
        save(note("projects/p/a.md", "# A\n\nOne.\n"));
        follower.poll();
        assertThat(follower.pullDue()).isTrue();
        save(note("projects/p/b.md", "# B\n\nTwo.\n"));
        follower.poll();
        assertThat(follower.pullDue()).as("within the spacing").isFalse();
    }
}
