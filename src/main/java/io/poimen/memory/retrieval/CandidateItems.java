package io.poimen.memory.retrieval;

import io.poimen.memory.index.SearchScope;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.retrieval.select.SelectionItem;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Fused candidates as selection items: the selection step's and the session step's view of a candidate. */
public final class CandidateItems {
    private CandidateItems() {
    }

    /** The items found and the rows known after reading (those given and those read). */
    public record Found(List<SelectionItem> items, ChunkRows.Read read) {
    }

    /**
     * The candidates among {@code ids} of this query: fused (at any rank, so matched by a branch and readable now), in
     * scope and carrying the query's tags. Reads only the rows not in {@code known}, so a session turn asks for its
     * previous context's chunks and selection stays lazy.
     */
    public static Found among(FusedQuery q, Collection<String> ids, Map<String, Chunk> known, ChunkRows rows) {
        Set<String> wanted = new HashSet<>(ids);
        List<FusedCandidate> asked = q.fused().stream().filter(c -> wanted.contains(c.chunkId())).toList();
        ChunkRows.Read read = rows.read(asked.stream().map(FusedCandidate::chunkId).toList(), known);
        List<SelectionItem> out = new ArrayList<>();
        for (FusedCandidate c : asked) {
            SelectionItem item = item(q.planned().scope(), c, read.rows().get(c.chunkId()));
            if (item != null) {
                out.add(item);
            }
        }
        return new Found(out, read);
    }

    /** The candidate as a selection item, or null when its row is gone, it is out of scope or lacks a tag. */
    static SelectionItem item(SearchScope scope, FusedCandidate c, Chunk chunk) {
        if (chunk == null || !scope.contains(chunk.path()) || !chunk.tags().containsAll(scope.tags())) {
            return null;
        }
        return new SelectionItem(c.chunkId(), chunk.path(), chunk.ordinal(), c.score(), chunk.tokens(),
                chunk.text(), chunk.metadata().keyTerms(), chunk.metadata().category());
    }
}
