package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.retrieval.filter.SearchFilters;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.retrieval.query.NormalizedQuery;
import io.poimen.memory.retrieval.query.RoutePlan;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * One query on its way through the route. The branches of the multicast share it (each answers into
 * {@link #answer}), so the fusion sees every branch that finished before the timeout.
 */
public final class QueryContext {
    public static final String PROPERTY = "queryContext";

    public final QueryRequest request;
    public final RetrievalSettings settings;
    public final long startedNanos = System.nanoTime();
    /** When the last step before the multicast, or the fusion, ended (times the steps between beans). */
    volatile long mark = startedNanos;
    public NormalizedQuery query;
    public RoutePlan plan;
    public SearchScope scope;
    /** The request's filters, checked (none: every note of the scope may answer). */
    public SearchFilters filters = SearchFilters.NONE;
    /**
     * The notes the caller may read (set by the access check before planning); null: every note (no-auth mode).
     * It must answer alike for the notes of one access group ({@code VaultPaths.accessGroupOf}): the scope caches
     * ask it once per group.
     */
    public Predicate<String> readable;
    final Map<Branch, BranchResult> answers = new ConcurrentHashMap<>();
    /** Positions (in the multicast, from 0) of the branches the multicast gave up on at its timeout. */
    final Set<Integer> late = new ConcurrentSkipListSet<>();
    /** The branches the fusion expected: wired by the route and chosen by the plan (set by the fusion). */
    public List<Branch> expected = List.of();
    /** Written by branches running in parallel, so a concurrent sorted map. */
    public final Map<String, String> degraded = new ConcurrentSkipListMap<>();
    /** Step → milliseconds, to the microsecond: the steps of a fast route take well under one millisecond. */
    public final Map<String, Double> timingsMs = new ConcurrentSkipListMap<>();
    public List<FusedCandidate> fused = new ArrayList<>();
    /**
     * The distinct chunks the fused branches returned, before any threshold (set by the fusion): the answer's
     * {@code calls.candidates}. Counted before scores are compared, so the index-wide BM25 statistics (which count
     * notes the caller may not read) do not move it by deciding which hits pass the lexical threshold.
     */
    public int candidates;
    /** Branch key → the hits it returned into the fusion (set by the fusion): {@code calls.branches}. */
    public Map<String, Integer> returned = Map.of();
    /** The distinct candidates the token budget chose from, best first (set by selection; session contexts). */
    public List<io.poimen.memory.retrieval.select.SelectionItem> selectable = List.of();
    /** Chunk rows already read during this query, so a later step does not read them again. */
    final Map<String, Chunk> chunkRows = new ConcurrentHashMap<>();

    public QueryContext(QueryRequest request, RetrievalSettings settings) {
        this.request = request;
        this.settings = settings;
    }

    /** The rows of {@code ids}, reading from the store only those not read earlier in this query. */
    Map<String, Chunk> chunks(Collection<String> ids, ChunkRows rows) {
        List<String> missing = ids.stream().filter(id -> !chunkRows.containsKey(id)).distinct().toList();
        if (!missing.isEmpty()) {
            rows.read(missing, this).forEach(c -> chunkRows.put(c.id(), c));
        }
        Map<String, Chunk> out = new HashMap<>();
        ids.forEach(id -> {
            Chunk c = chunkRows.get(id);
            if (c != null) {
                out.put(id, c);
            }
        });
        return out;
    }

    /** A chunk row read during this query, or null. */
    public Chunk chunkRow(String id) {
        return chunkRows.get(id);
    }

    void mark() {
        mark = System.nanoTime();
    }

    /** Records {@code step} as the time since {@code startNanos}. */
    public void time(String step, long startNanos) {
        timingsMs.put(step, millisSince(startNanos));
    }

    /** Milliseconds since {@code nanos}, rounded to the microsecond. */
    public static double millisSince(long nanos) {
        return Math.round((System.nanoTime() - nanos) / 1_000.0) / 1_000.0;
    }

    public void answer(BranchResult result) {
        answers.put(result.branch(), result);
    }

    public List<BranchResult> answers() {
        return List.copyOf(answers.values());
    }

    /** The answer of {@code branch}, or null when it gave none (yet). */
    public BranchResult answer(Branch branch) {
        return answers.get(branch);
    }

    /** The multicast's timeout passed before its branch at {@code index} (from 0) answered. */
    public void late(int index) {
        late.add(index);
    }

    public Set<Integer> late() {
        return Set.copyOf(late);
    }

    public boolean runs(Branch branch) {
        return plan != null && plan.runs(branch);
    }

    public void degrade(Branch branch, String reason) {
        degrade(branch.key(), reason);
    }

    /** {@code what}: a branch key, or another part of the answer that was served without its usual source. */
    public void degrade(String what, String reason) {
        degraded.put(what, reason);
    }
}
