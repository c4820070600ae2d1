package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.select.SelectionItem;
import io.poimen.memory.vault.Chunk;
import java.util.List;
import java.util.Map;

/**
 * The answer as selection made it, and what the session step needs to carry a previous context.
 *
 * @param selectable the distinct candidates the token budget chose from, best first
 * @param rows       the chunk rows read so far (chunk id → row), so a later step reads only the others
 */
public record SelectedQuery(FusedQuery fused, QueryResponse response, List<SelectionItem> selectable,
                            Map<String, Chunk> rows, Trace trace) {
    public SelectedQuery {
        selectable = List.copyOf(selectable);
        rows = Map.copyOf(rows);
    }

    public QueryRequest request() {
        return fused.planned().request();
    }

    public SelectedQuery with(QueryResponse newResponse, Map<String, Chunk> newRows, Trace newTrace) {
        return new SelectedQuery(fused, newResponse, selectable, newRows, newTrace);
    }
}
