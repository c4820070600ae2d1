package io.poimen.memory.retrieval;

/** A query whose caller may read its project, with what else they may read. */
public record AllowedQuery(AskedQuery asked, QueryCaller caller, Trace trace) {
}
