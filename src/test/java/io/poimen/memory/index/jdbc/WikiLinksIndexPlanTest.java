package io.poimen.memory.index.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.testsupport.TestPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The statements {@link JdbcNoteStore} runs per note on {@code wiki_links} (read, delete before a re-ingest,
 * re-resolve at relink) find that note's rows through an index instead of reading the whole table or index: on
 * {@value #NOTES} notes with {@value #LINKS_PER_NOTE} links each, they touch a handful of pages. Under the old
 * {@code (project, source_path)} index each read every index page, so a full reindex grew with the square of the
 * links.
 */
class WikiLinksIndexPlanTest {

    private static final int NOTES = 20_000;
    private static final int LINKS_PER_NOTE = 5;
    /** Index descent and the note's heap pages; the whole table or index is hundreds. */
    private static final int FEW_PAGES = 30;

    private static DataSource dataSource;

    @BeforeAll
    static void loadLinks() {
        dataSource = TestPostgres.freshDatabase("wiki_links_plan");
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.update("insert into wiki_links (project, source_path, target_path, link_target, link_type)"
                + " select 'p', 'projects/p/n-' || n || '.md', 't-' || t, 't-' || t, 'wiki'"
                + " from generate_series(1, " + NOTES + ") n, generate_series(1, " + LINKS_PER_NOTE + ") t");
        jdbc.execute("analyze wiki_links");
    }

    @Test
    void aNotesLinksAreReadDeletedAndResolvedByIndexTouchingAFewPages() throws SQLException {
        String note = "projects/p/n-777.md";
        assertThat(pagesTouched(JdbcNoteStore.LINKS_FROM, List.of(note))).isLessThanOrEqualTo(FEW_PAGES);
        assertThat(pagesTouched(JdbcNoteStore.DELETE_LINKS_FROM, List.of(note))).isLessThanOrEqualTo(FEW_PAGES);
        assertThat(pagesTouched(JdbcNoteStore.UPDATE_RESOLUTION, List.of("projects/p/x.md", "wiki", note, "t-3")))
                .isLessThanOrEqualTo(FEW_PAGES);
    }

    /** Shared buffers the statement hit or read, executed in a transaction that is rolled back. */
    private static long pagesTouched(String sql, List<String> parameters) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement explain =
                         connection.prepareStatement("explain (analyze, buffers, format json) " + sql)) {
                for (int i = 0; i < parameters.size(); i++) {
                    explain.setString(i + 1, parameters.get(i));
                }
                try (ResultSet rs = explain.executeQuery()) {
                    rs.next();
                    JsonNode plan = new ObjectMapper().readTree(rs.getString(1)).get(0).get("Plan");
                    return plan.get("Shared Hit Blocks").asLong() + plan.get("Shared Read Blocks").asLong();
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            } finally {
                connection.rollback();
            }
        }
    }
}
