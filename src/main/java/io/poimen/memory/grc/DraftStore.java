package io.poimen.memory.grc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The {@code grc_drafts} table. Claims and decisions are conditional updates, so two hub instances (or the HTTP
 * request and the retry timer) never deliver the same draft at the same time, and a draft is approved or rejected
 * once.
 */
public class DraftStore {
    private static final int MAX_ERROR = 4000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final NamedParameterJdbcTemplate jdbc;

    public DraftStore(DataSource dataSource) {
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
    }

    public void insert(Draft d) {
        jdbc.update("""
                insert into grc_drafts (id, user_subject, author_name, author_email, document_path, content, message,
                  branch, status, attempts, next_attempt_at, created_at, updated_at, review_host, operations, changes,
                  base_commit)
                values (:id, :user, :authorName, :authorEmail, :path, :content, :message, :branch, :status, 0,
                  :next, :created, :created, :host, :operations, :changes, :baseCommit)""", new MapSqlParameterSource()
                .addValue("id", d.id()).addValue("user", d.userSubject()).addValue("authorName", d.authorName())
                .addValue("authorEmail", d.authorEmail()).addValue("path", d.documentPath())
                .addValue("content", d.content()).addValue("message", d.message()).addValue("branch", d.branch())
                .addValue("status", d.status().json()).addValue("next", ts(d.nextAttemptAt()))
                .addValue("created", ts(d.createdAt())).addValue("host", d.edit().host().json())
                .addValue("operations", d.edit().operations()).addValue("changes", d.edit().changes().toJson())
                .addValue("baseCommit", d.edit().baseCommit()));
    }

    public Optional<Draft> find(String id) {
        return jdbc.query("select * from grc_drafts where id = :id", new MapSqlParameterSource("id", id),
                DraftStore::row).stream().findFirst();
    }

    public Optional<Draft> findByPullRequest(int prNumber) {
        return jdbc.query("select * from grc_drafts where pr_number = :pr order by created_at desc",
                new MapSqlParameterSource("pr", prNumber), DraftStore::row).stream().findFirst();
    }

    /** Drafts in one of {@code statuses}, newest first (ties by id), at most {@code limit}. */
    public List<Draft> list(Collection<DraftStatus> statuses, int limit) {
        return jdbc.query("select * from grc_drafts where status in (:statuses) order by created_at desc, id limit :limit",
                new MapSqlParameterSource("statuses", statuses.stream().map(DraftStatus::json).toList())
                        .addValue("limit", limit), DraftStore::row);
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

    /** The pull request is open: the draft is {@code open}, or {@code conflict} with what stands in the way. */
    public void delivered(String id, int prNumber, String prUrl, Map<String, EditConflict> conflicts, Instant now) {
        jdbc.update("""
                update grc_drafts set status = :status, pr_number = :pr, pr_url = :url, last_error = :error,
                  conflicts = :conflicts, next_attempt_at = null, updated_at = :now where id = :id""",
                new MapSqlParameterSource("id", id).addValue("pr", prNumber).addValue("url", prUrl)
                        .addValue("status", (conflicts.isEmpty() ? DraftStatus.OPEN : DraftStatus.CONFLICT).json())
                        .addValue("error", conflicts.isEmpty() ? null : error(summary(conflicts)))
                        .addValue("conflicts", conflicts.isEmpty() ? null : json(conflicts)).addValue("now", ts(now)));
    }

    public void delivered(String id, int prNumber, String prUrl, Instant now) {
        delivered(id, prNumber, prUrl, Map.of(), now);
    }

    /** After a failed attempt: pending again with the next attempt time, or failed for good when it is null. */
    public void attemptFailed(String id, String error, Instant nextAttempt, Instant now) {
        jdbc.update("""
                update grc_drafts set status = :status, last_error = :error, next_attempt_at = :next, updated_at = :now
                where id = :id and status in ('pending', 'delivering')""",
                new MapSqlParameterSource("id", id)
                        .addValue("status", (nextAttempt == null ? DraftStatus.DELIVERY_FAILED : DraftStatus.PENDING)
                                .json())
                        .addValue("error", error(error == null ? "unknown error" : error))
                        .addValue("next", ts(nextAttempt)).addValue("now", ts(now)));
    }

    /** Approved: an open draft not approved before gets its reviewer and waits for the writer's merge. */
    public boolean approve(String id, String reviewer, String comment, Instant now) {
        return jdbc.update("""
                update grc_drafts set reviewer = :reviewer, review_comment = :comment, decided_at = :now,
                  merge_requested_at = :now, updated_at = :now
                where id = :id and status = 'open' and merge_requested_at is null""",
                new MapSqlParameterSource("id", id).addValue("reviewer", reviewer).addValue("comment", comment)
                        .addValue("now", ts(now))) == 1;
    }

    /** Rejected: an open draft not approved before. */
    public boolean reject(String id, String reviewer, String comment, Instant now) {
        return jdbc.update("""
                update grc_drafts set status = 'rejected', reviewer = :reviewer, review_comment = :comment,
                  decided_at = :now, updated_at = :now
                where id = :id and status = 'open' and merge_requested_at is null""",
                new MapSqlParameterSource("id", id).addValue("reviewer", reviewer).addValue("comment", comment)
                        .addValue("now", ts(now))) == 1;
    }

    /** Approved drafts the writer has not merged yet, oldest approval first. */
    public List<String> mergeRequested(int limit) {
        return jdbc.queryForList("""
                select id from grc_drafts where status = 'open' and merge_requested_at is not null
                order by merge_requested_at, id limit :limit""", new MapSqlParameterSource("limit", limit),
                String.class);
    }

    public void merged(String id, String commit, Instant now) {
        jdbc.update("""
                update grc_drafts set status = 'merged', merge_commit = :commit, merge_requested_at = null,
                  last_error = null, updated_at = :now where id = :id and status = 'open'""",
                new MapSqlParameterSource("id", id).addValue("commit", commit).addValue("now", ts(now)));
    }

    /** The draft cannot be merged as it is: {@code conflict}, with each note's conflict. */
    public void conflicted(String id, Map<String, EditConflict> conflicts, Instant now) {
        jdbc.update("""
                update grc_drafts set status = 'conflict', conflicts = :conflicts, last_error = :error,
                  merge_requested_at = null, next_attempt_at = null, updated_at = :now
                where id = :id and status in ('open', 'delivering')""",
                new MapSqlParameterSource("id", id).addValue("conflicts", json(conflicts))
                        .addValue("error", error(summary(conflicts))).addValue("now", ts(now)));
    }

    /** A merge the writer could not do now (the vault folder has local changes in the way): kept, with why. */
    public void mergeFailed(String id, String error, Instant now) {
        jdbc.update("update grc_drafts set last_error = :error, updated_at = :now where id = :id and status = 'open'",
                new MapSqlParameterSource("id", id).addValue("error", error(error)).addValue("now", ts(now)));
    }

    /** Forgejo closed the draft's pull request: merged there, or rejected. */
    public void pullRequestClosed(int prNumber, boolean merged, String by, Instant now) {
        jdbc.update("""
                update grc_drafts set status = :status, reviewer = :by, decided_at = :now, updated_at = :now
                where pr_number = :pr and status in ('open', 'conflict')""",
                new MapSqlParameterSource("pr", prNumber).addValue("by", by).addValue("now", ts(now))
                        .addValue("status", (merged ? DraftStatus.MERGED : DraftStatus.REJECTED).json()));
    }

    private static String summary(Map<String, EditConflict> conflicts) {
        return "conflict in " + String.join(", ", conflicts.keySet());
    }

    private static String error(String message) {
        return message.length() > MAX_ERROR ? message.substring(0, MAX_ERROR) : message;
    }

    private static Draft row(ResultSet rs, int n) throws SQLException {
        Number pr = (Number) rs.getObject("pr_number");
        String path = rs.getString("document_path");
        String content = rs.getString("content");
        String changes = rs.getString("changes");
        String conflicts = rs.getString("conflicts");
        Draft.Edit edit = new Draft.Edit(ReviewHost.of(rs.getString("review_host")), rs.getString("operations"),
                changes == null ? DraftChanges.write(path, content) : DraftChanges.fromJson(changes),
                rs.getString("base_commit"), conflicts == null ? Map.of() : map(conflicts));
        Draft.Review review = new Draft.Review(rs.getString("reviewer"), rs.getString("review_comment"),
                instant(rs.getTimestamp("decided_at")), instant(rs.getTimestamp("merge_requested_at")),
                rs.getString("merge_commit"));
        return new Draft(rs.getString("id"), rs.getString("user_subject"), rs.getString("author_name"),
                rs.getString("author_email"), path, content, rs.getString("message"), rs.getString("branch"),
                DraftStatus.of(rs.getString("status")), rs.getInt("attempts"), rs.getString("last_error"),
                pr == null ? null : pr.intValue(), rs.getString("pr_url"), instant(rs.getTimestamp("next_attempt_at")),
                instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("updated_at")), edit, review);
    }

    private static String json(Map<String, EditConflict> map) {
        try {
            return JSON.writeValueAsString(map);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, EditConflict> map(String json) {
        try {
            return JSON.readValue(json, new TypeReference<Map<String, EditConflict>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored conflicts do not parse: " + e.getOriginalMessage(), e);
        }
    }

    private static Timestamp ts(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
