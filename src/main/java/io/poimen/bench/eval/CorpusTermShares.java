package io.poimen.bench.eval;

import io.poimen.memory.vault.Terms;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The adaptive gate's term shares for a replay, from a BEIR corpus: what {@code TfIdfIndex.termShares} gives the
 * hub's fusion, per document instead of per chunk (a document's title and text, the vault's analyzer, IDF
 * {@code ln(N / df)} over the documents). A dump holds no text, so a replay without these leaves the gate's
 * coverage keep out.
 */
public final class CorpusTermShares {
    private final Map<String, Set<String>> docTerms = new HashMap<>();
    private final Map<String, Integer> df = new HashMap<>();
    private final Map<String, Map<String, Double>> idfByQuery = new ConcurrentHashMap<>();

    public CorpusTermShares(List<BeirDataset.Doc> corpus) {
        for (BeirDataset.Doc d : corpus) {
            Set<String> terms = new HashSet<>(Terms.analyze(d.title().isBlank() ? d.text()
                    : d.title() + "\n\n" + d.text()));
            docTerms.put(d.id(), terms);
            terms.forEach(t -> df.merge(t, 1, Integer::sum));
        }
    }

    /** Chunk id → the IDF-weighted share of {@code query}'s terms its document holds (0: unknown document). */
    public ToDoubleFunction<String> forQuery(String query, Map<String, String> docByChunk) {
        Map<String, Double> idf = idfByQuery.computeIfAbsent(query, this::idf);
        double total = idf.values().stream().mapToDouble(Double::doubleValue).sum();
        return chunk -> {
            Set<String> terms = docTerms.getOrDefault(docByChunk.getOrDefault(chunk, chunk), Set.of());
            double held = 0;
            for (Map.Entry<String, Double> e : idf.entrySet()) {
                if (terms.contains(e.getKey())) {
                    held += e.getValue();
                }
            }
            return total <= 0 ? 0 : held / total;
        };
    }

    private Map<String, Double> idf(String query) {
        Map<String, Double> idf = new HashMap<>();
        for (String t : new LinkedHashSet<>(Terms.analyze(query))) {
            int d = df.getOrDefault(t, 0);
            idf.put(t, d == 0 ? 0 : Math.log((double) docTerms.size() / d));
        }
        return idf;
    }
}
