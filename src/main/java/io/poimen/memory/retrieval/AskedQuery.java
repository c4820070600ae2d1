package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.filter.SearchFilters;

/**
 * A checked request with the settings it runs with (the policy and the request's overrides).
 *
 * @param filters the request's filters, checked (none: every note of the scope may answer)
 */
public record AskedQuery(QueryRequest request, RetrievalSettings settings, SearchFilters filters, Trace trace) {
}
