package io.poimen.memory.cluster;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Keeps this replica's in-process TF-IDF index and link graph in step with note-store writes made by other
 * replicas (the leader), from the {@code index_changes} log that every write appends to in its own transaction.
 *
 * <p>Each poll reads the rows after the last one seen, reloads the chunks of the notes they name from the store
 * and rebuilds the graph. Ids are taken when a row is inserted but become visible when its transaction commits,
 * so a lower id can appear after a higher one: ids skipped over are asked for again for a while ({@link #GAP_TTL_MS}).
 * At start the bootstrap takes a {@link #mark()} before loading the store, so whatever commits meanwhile is
 * applied (again) on top; reapplying a note is harmless.
 */
public class IndexFollower {
    static final long GAP_TTL_MS = 120_000;
    static final int MAX_ROWS = 5000;
    static final long PULL_SPACING_MS = 2000;
    private static final int MAX_GAPS = 1000;
    private static final Logger log = LoggerFactory.getLogger(IndexFollower.class);

    private final NamedParameterJdbcTemplate jdbc;
    private final NoteStore notes;
    private final TfIdfIndex tfidf;
    private final GraphService graph;
    private final String nodeId;
    private final Map<Long, Long> gaps = new LinkedHashMap<>();
    private long last = -1;
    private boolean graphBehind;
    private boolean failing;
    /** Notes were reloaded since the working copy was last asked to pull. */
    private boolean pullWanted;
    private long lastPullNanos;
    private long appliedRows;
    private long lastAppliedMillis;

    public IndexFollower(DataSource dataSource, NoteStore notes, TfIdfIndex tfidf, GraphService graph, String nodeId) {
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        this.notes = notes;
        this.tfidf = tfidf;
        this.graph = graph;
        this.nodeId = nodeId;
    }

    /** The newest change id now; take it before loading the store. */
    public long mark() {
        Long max = jdbc.getJdbcTemplate().queryForObject("select coalesce(max(id), 0) from index_changes", Long.class);
        return max == null ? 0 : max;
    }

    /** Starts following after {@code mark} (the store was loaded after it was taken). */
    public synchronized void startAfter(long mark) {
        last = mark;
        gaps.clear();
        log.info("following index changes after #{}", mark);
    }

    /** Applies the changes other replicas committed since the last poll; the number of notes reloaded. */
    public synchronized int poll() {
        if (last < 0) {
            return 0; // the bootstrap has not loaded the store yet
        }
        try {
            int reloaded = follow();
            if (failing) {
                log.info("following index changes again from #{}", last);
                failing = false;
            }
            return reloaded;
        } catch (org.springframework.dao.DataAccessException e) {
            // database away: keep serving what is loaded, carry on from the same change when it is back
            if (!failing) {
                log.warn("cannot read index changes, retrying: {}", e.getMostSpecificCause().toString());
                failing = true;
            }
            return 0;
        }
    }

    private int follow() {
        expireGaps();
        MapSqlParameterSource params = new MapSqlParameterSource("last", last).addValue("gaps", List.copyOf(gaps.keySet()));
        List<Object[]> rows = jdbc.query("select id, path, writer from index_changes where id > :last"
                        + (gaps.isEmpty() ? "" : " or id in (:gaps)") + " order by id limit " + MAX_ROWS, params,
                (rs, n) -> new Object[] {rs.getLong(1), rs.getString(2), rs.getString(3)});
        Set<String> paths = new LinkedHashSet<>();
        boolean foreign = false;
        long now = System.nanoTime();
        for (Object[] row : rows) {
            long id = (Long) row[0];
            if (gaps.remove(id) == null && id > last) {
                for (long missing = last + 1; missing < id && gaps.size() < MAX_GAPS; missing++) {
                    gaps.put(missing, now);
                }
                last = id;
            }
            if (!nodeId.equals(row[2])) {
                foreign = true;
                if (row[1] != null) {
                    paths.add((String) row[1]);
                }
            }
        }
        if (!paths.isEmpty()) {
            reload(paths);
        }
        graphBehind |= foreign;
        // while a large reindex streams in, rebuild the graph once the log is read up to its end
        if (graphBehind && rows.size() < MAX_ROWS) {
            graph.replace(LinkGraph.of(notes.notes().stream().map(NoteStore.NoteRow::path).toList(), notes.links()));
            graphBehind = false;
        }
        if (foreign) {
            pullWanted = true;
            appliedRows += rows.size();
            lastAppliedMillis = System.currentTimeMillis();
            log.debug("applied {} index changes from other replicas ({} notes) up to #{}", rows.size(), paths.size(),
                    last);
        }
        return paths.size() + (foreign && paths.isEmpty() ? 1 : 0);
    }

    /**
     * True when this replica's working copy should pull now: other replicas' changes were applied since the last
     * pull, and the last one was at least {@link #PULL_SPACING_MS} ago (a large reindex streams changes for
     * minutes; its working copy needs the commit once, not a fetch per poll).
     */
    public synchronized boolean pullDue() {
        long now = System.nanoTime();
        if (!pullWanted || now - lastPullNanos < TimeUnit.MILLISECONDS.toNanos(PULL_SPACING_MS)) {
            return false;
        }
        pullWanted = false;
        lastPullNanos = now;
        return true;
    }

    private void reload(Set<String> paths) {
        Map<String, List<Chunk>> byPath = new HashMap<>();
        paths.forEach(p -> byPath.put(p, new ArrayList<>()));
        for (Chunk chunk : notes.chunksOfNotes(paths)) {
            byPath.get(chunk.path()).add(chunk);
        }
        Map<String, java.time.Instant> changedAt = notes.updatedAt(paths);
        // a note without chunks (deleted, or empty) leaves the index
        byPath.forEach((path, chunks) -> tfidf.replacePath(path, chunks, changedAt.get(path)));
    }

    private void expireGaps() {
        long oldest = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(GAP_TTL_MS);
        for (Iterator<Long> it = gaps.values().iterator(); it.hasNext(); ) {
            if (it.next() < oldest) {
                it.remove();
            }
        }
    }

    /** For the cluster status: the last change id seen, rows applied, and when. */
    public synchronized Map<String, Object> status() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("last_change", last);
        s.put("changes_applied", appliedRows);
        s.put("last_applied_at", lastAppliedMillis == 0 ? null : java.time.Instant.ofEpochMilli(lastAppliedMillis).toString());
        s.put("pending_gaps", gaps.size());
        return s;
    }

    Set<Long> gaps() {
        return gaps.keySet().stream().collect(Collectors.toSet());
    }
}
