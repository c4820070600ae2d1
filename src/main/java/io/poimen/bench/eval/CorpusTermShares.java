package io.poimen.bench.eval;

import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.Terms;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The adaptive gate's term shares for a replay, from a BEIR corpus: the hub's own {@link TfIdfIndex#termShares}
 * over an index of the corpus, one chunk per document (its title as heading, its text as text) instead of the
 * vault's chunks. A dump holds no text, so a replay without these leaves the gate's coverage keep out.
 */
public final class CorpusTermShares {
    private final TfIdfIndex index = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);

    public CorpusTermShares(List<BeirDataset.Doc> corpus) {
        index.addAll(corpus.stream().map(d -> new Chunk(d.id(), d.id(), null, 0, d.title(), List.of(d.title()),
                d.text(), 0, null, List.of())).toList());
    }

    /** Chunk id → the IDF-weighted share of {@code query}'s terms its document holds (0: unknown document). */
    public ToDoubleFunction<String> forQuery(String query, Map<String, String> docByChunk) {
        ToDoubleFunction<String> byDocument = index.termShares(Terms.analyze(query), null, null);
        return chunk -> byDocument.applyAsDouble(docByChunk.getOrDefault(chunk, chunk));
    }
}
