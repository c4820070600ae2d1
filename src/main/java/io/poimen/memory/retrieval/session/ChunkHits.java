package io.poimen.memory.retrieval.session;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.retrieval.select.HitCounts;
import jakarta.annotation.PreDestroy;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * How often each chunk was selected into a context of a project, for the TF-IDF branch's hit factor. A query only
 * adds its selection to counts in memory ({@link #selected}); {@link #flush} (the context-stats-flush route of
 * {@link SessionConfig}, and at shutdown) adds them to table {@code chunk_hits} and then reads the rows any replica
 * changed since its previous read, so every replica ranks with every replica's counts a flush period later.
 * {@link #count} answers from memory: what was read from the table plus what is not written yet. A write that fails
 * keeps its counts for the next flush.
 *
 * <p>Bounded: at most {@value #MAX_PENDING} (project, chunk) pairs wait for a flush; a selection of another pair
 * while that many wait is not counted (meter {@code poimen.context.hits.dropped}). The table holds one row per
 * pair ever selected; rows of chunks that no longer exist are never read by a query.
 *
 * <p>Counts are per project and never leave the hub in an answer; they can only reorder candidates a caller may
 * read already (docs/security.md).
 */
public class ChunkHits implements HitCounts {
    static final int MAX_PENDING = 100_000;
    /** Rows are re-read from this long before the previous read: an addition committed late is not missed. */
    private static final long READ_OVERLAP_SECONDS = 60;
    private static final Logger LOG = LoggerFactory.getLogger(ChunkHits.class);

    private static final int BATCH = 500;

    private record Key(String project, String chunkId) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final Map<Key, Long> stored = new ConcurrentHashMap<>();
    private final Map<Key, Long> pending = new ConcurrentHashMap<>();
    /** Taken from {@link #pending} by the running flush, counted until its read brought them back in {@link #stored}. */
    private final Map<Key, Long> writing = new ConcurrentHashMap<>();
    private final Counter dropped;
    private final int maxPending;
    /** The database's time of the last read; null before the first (which reads every row). */
    private LocalDateTime readAt;

    public ChunkHits(JdbcTemplate jdbc, MeterRegistry registry) {
        this(jdbc, registry, MAX_PENDING);
    }

    /** @param maxPending how many (project, chunk) pairs may wait for a flush */
    ChunkHits(JdbcTemplate jdbc, MeterRegistry registry, int maxPending) {
        this.maxPending = maxPending;
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource()));
        this.dropped = Counter.builder("poimen.context.hits.dropped")
                .description("Chunk selections not counted because too many waited for the database").register(registry);
    }

    /** One context of {@code project}: each of {@code chunkIds} was selected once more. */
    public void selected(String project, Collection<String> chunkIds) {
        if (project == null) {
            return;
        }
        for (String id : chunkIds) {
            Key key = new Key(project, id);
            if (pending.size() >= maxPending && !pending.containsKey(key)) {
                dropped.increment();
                continue;
            }
            pending.merge(key, 1L, Long::sum);
        }
    }

    @Override
    public long count(String project, String chunkId) {
        Key key = new Key(project, chunkId);
        return stored.getOrDefault(key, 0L) + writing.getOrDefault(key, 0L) + pending.getOrDefault(key, 0L);
    }

    /** The table's counts at start (before the first query, so the first flush period ranks with them too). */
    @EventListener(ApplicationReadyEvent.class)
    public void load() {
        flush();
    }

    /** Adds what was selected since the last flush to the table, then reads what changed there since the last read. */
    public synchronized void flush() {
        for (Key key : List.copyOf(pending.keySet())) {
            Long n = pending.remove(key);
            if (n != null) {
                writing.merge(key, n, Long::sum);
            }
        }
        try {
            add(List.copyOf(writing.entrySet()));
        } catch (DataAccessException e) {
            writing.forEach((k, n) -> pending.merge(k, n, Long::sum));
            writing.clear();
            LOG.warn("chunk_hits not updated (the counts wait for the next flush): {}", e.getMessage());
            return;
        }
        try {
            read();
        } catch (DataAccessException e) {
            writing.forEach((k, n) -> stored.merge(k, n, Long::sum)); // in the table: the next read confirms them
            LOG.warn("chunk_hits not read (other replicas' counts come with the next flush): {}", e.getMessage());
        } finally {
            writing.clear();
        }
    }

    @PreDestroy
    void close() {
        flush();
    }

    /** In one transaction: a row that does not exist yet is inserted (another replica's insert fails it all). */
    private void add(List<Map.Entry<Key, Long>> counts) {
        if (counts.isEmpty()) {
            return;
        }
        tx.executeWithoutResult(status -> {
            int[][] updated = jdbc.batchUpdate("update chunk_hits set hits = hits + ?, updated_at = localtimestamp "
                    + "where project = ? and chunk_id = ?", counts, BATCH, (ps, e) -> {
                        ps.setLong(1, e.getValue());
                        ps.setString(2, e.getKey().project());
                        ps.setString(3, e.getKey().chunkId());
                    });
            List<Map.Entry<Key, Long>> missing = new ArrayList<>();
            for (int i = 0; i < counts.size(); i++) {
                if (updated[i / BATCH][i % BATCH] == 0) {
                    missing.add(counts.get(i));
                }
            }
            jdbc.batchUpdate("insert into chunk_hits (hits, project, chunk_id, updated_at) values (?, ?, ?, "
                    + "localtimestamp)", missing, BATCH, (ps, e) -> {
                        ps.setLong(1, e.getValue());
                        ps.setString(2, e.getKey().project());
                        ps.setString(3, e.getKey().chunkId());
                    });
        });
    }

    private void read() {
        LocalDateTime now = jdbc.queryForObject("select localtimestamp", LocalDateTime.class);
        String select = "select project, chunk_id, hits from chunk_hits";
        RowCallbackHandler row = rs -> stored.put(new Key(rs.getString(1), rs.getString(2)), rs.getLong(3));
        if (readAt == null) {
            jdbc.query(select, row);
        } else {
            jdbc.query(select + " where updated_at >= ?", row, readAt.minusSeconds(READ_OVERLAP_SECONDS));
        }
        readAt = now;
    }
}
