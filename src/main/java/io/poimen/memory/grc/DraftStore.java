package io.poimen.memory.grc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The {@code grc_drafts} table. Claims are conditional updates, so two hub instances (or the HTTP request and the
 * retry timer) never deliver the same draft at the same time.
 */
public class DraftStore {
    private static final int MAX_ERROR = 4000;
    private final NamedParameterJdbcTemplate jdbc;

    public DraftStore(DataSource dataSource) {
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
    }

    public void insert(Draft d) {
        jdbc.update("""
                insert into grc_drafts (id, user_subject, author_name, author_email, document_path, content, message,
                  branch, status, attempts, next_attempt_at, created_at, updated_at)
                values (:id, :user, :authorName, :authorEmail, :path, :content, :message, :branch, :status, 0,
                  :next, :created, :created)""", new MapSqlParameterSource()
                .addValue("id", d.id()).addValue("user", d.userSubject()).addValue("authorName", d.authorName())
                .addValue("authorEmail", d.authorEmail()).addValue("path", d.documentPath())
                .addValue("content", d.content()).addValue("message", d.message()).addValue("branch", d.branch())
                .addValue("status", d.status().json()).addValue("next", ts(d.nextAttemptAt()))
                .addValue("created", ts(d.createdAt())));
    }

    public Optional<Draft> find(String id) {
        return jdbc.query("select * from grc_drafts where id = :id", new MapSqlParameterSource("id", id),
                DraftStore::row).stream().findFirst();
    }

    public Optional<Draft> findByPullRequest(int prNumber) {
        return jdbc.query("select * from grc_drafts where pr_number = :pr order by created_at desc",
                new MapSqlParameterSource("pr", prNumber), DraftStore::row).stream().findFirst();
    }

    /** Claims a draft nobody has tried yet (the request that stored it delivers it at once). */
    public boolean claimNew(String id, Instant now) {
        return jdbc.update("""
                update grc_drafts set status = 'delivering', attempts = attempts + 1, updated_at = :now
                where id = :id and status = 'pending' and attempts = 0""",
                new MapSqlParameterSource("id", id).addValue("now", ts(now))) == 1;
    }

    /** Claims a draft that is due: pending and past its next attempt time, or stuck delivering since {@code stale}. */
    public boolean claimDue(String id, Instant now, Instant stale) {
        return jdbc.update("""
                update grc_drafts set status = 'delivering', attempts = attempts + 1, updated_at = :now
                where id = :id and ((status = 'pending' and next_attempt_at <= :now)
                                    or (status = 'delivering' and updated_at < :stale))""",
                new MapSqlParameterSource("id", id).addValue("now", ts(now)).addValue("stale", ts(stale))) == 1;
    }

    /** Ids of drafts a retry should pick up now, oldest first. */
    public List<String> due(Instant now, Instant stale, int limit) {
        return jdbc.queryForList("""
                select id from grc_drafts
                where (status = 'pending' and next_attempt_at <= :now) or (status = 'delivering' and updated_at < :stale)
                order by created_at limit :limit""",
                new MapSqlParameterSource("now", ts(now)).addValue("stale", ts(stale)).addValue("limit", limit),
                String.class);
    }

    public void delivered(String id, int prNumber, String prUrl, Instant now) {
        jdbc.update("""
                update grc_drafts set status = 'delivered', pr_number = :pr, pr_url = :url, last_error = null,
                  next_attempt_at = null, updated_at = :now where id = :id""",
                new MapSqlParameterSource("id", id).addValue("pr", prNumber).addValue("url", prUrl)
                        .addValue("now", ts(now)));
    }

    /** After a failed attempt: pending again with the next attempt time, or failed for good when it is null. */
    public void attemptFailed(String id, String error, Instant nextAttempt, Instant now) {
        String message = error == null ? "unknown error" : error;
        jdbc.update("""
                update grc_drafts set status = :status, last_error = :error, next_attempt_at = :next, updated_at = :now
                where id = :id and status <> 'delivered'""",
                new MapSqlParameterSource("id", id)
                        .addValue("status", (nextAttempt == null ? DraftStatus.FAILED : DraftStatus.PENDING).json())
                        .addValue("error", message.length() > MAX_ERROR ? message.substring(0, MAX_ERROR) : message)
                        .addValue("next", ts(nextAttempt)).addValue("now", ts(now)));
    }

    private static Draft row(ResultSet rs, int n) throws SQLException {
        Number pr = (Number) rs.getObject("pr_number");
        return new Draft(rs.getString("id"), rs.getString("user_subject"), rs.getString("author_name"),
                rs.getString("author_email"), rs.getString("document_path"), rs.getString("content"),
                rs.getString("message"), rs.getString("branch"), DraftStatus.of(rs.getString("status")),
                rs.getInt("attempts"), rs.getString("last_error"), pr == null ? null : pr.intValue(),
                rs.getString("pr_url"), instant(rs.getTimestamp("next_attempt_at")),
                instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("updated_at")));
    }

    private static Timestamp ts(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
