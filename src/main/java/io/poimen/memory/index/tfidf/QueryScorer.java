package io.poimen.memory.index.tfidf;

import io.poimen.memory.index.Hit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One query's pass over the postings of its terms (formula on {@link TfIdfIndex}); call under the read lock.
 * The accumulators are per thread and reused, and only the touched slots are reset, so a query allocates
 * nothing proportional to the index size.
 */
final class QueryScorer {
    private static final ThreadLocal<QueryScorer> PER_THREAD = ThreadLocal.withInitial(QueryScorer::new);

    private double[] acc = new double[0];
    private boolean[] seen = new boolean[0];
    private int[] touched = new int[0];
    private int touchedCount;

    static List<Hit> search(InvertedIndex index, double metadataWeight, Map<String, Integer> qtf, String project,
                            Set<String> scopePaths, Predicate<String> readable, int k) {
        QueryScorer scorer = PER_THREAD.get();
        try {
            return scorer.score(index, metadataWeight, qtf, project, scopePaths, readable, k);
        } finally {
            scorer.reset();
        }
    }

    private List<Hit> score(InvertedIndex index, double metadataWeight, Map<String, Integer> qtf, String project,
                            Set<String> scopePaths, Predicate<String> readable, int k) {
        ensureCapacity(index.table().highWater());
        int bucket = index.bucketOf(project);
        Set<Integer> hidden = new HashSet<>();
        int hiddenInBuckets = readable == null ? 0 : hidden(index, bucket, readable, hidden);
        qtf.forEach((term, count) -> {
            TermEntry e = index.entry(term);
            if (e != null) {
                double idf = index.idf(e, bucket, hidden, hiddenInBuckets);
                accumulate(e.text, (1 + Math.log(count)) * idf * idf);
                accumulate(e.meta, idf * metadataWeight);
            }
        });
        ChunkTable table = index.table();
        TopHits top = new TopHits(k);
        for (int i = 0; i < touchedCount; i++) {
            int slot = touched[i];
            // the scope lookup is the costly part for a common term touching most chunks: only a hit that would
            // enter the top k is looked up
            if (top.mayEnter(acc[slot]) && (scopePaths == null || scopePaths.contains(table.path(slot)))) {
                top.offer(table.id(slot), acc[slot]);
            }
        }
        return top.best();
    }

    /** Collects the project and shared chunks the caller may not read; returns how many there are. */
    private static int hidden(InvertedIndex index, int bucket, Predicate<String> readable, Set<Integer> out) {
        int inBuckets = 0;
        for (Map.Entry<String, List<Integer>> e : index.table().byPath().entrySet()) {
            // only project and shared chunks count in the project IDF; other projects' notes need no decision
            if (!e.getValue().isEmpty() && index.inBuckets(e.getValue().get(0), bucket)
                    && !readable.test(e.getKey())) {
                out.addAll(e.getValue());
                inBuckets += e.getValue().size();
            }
        }
        return inBuckets;
    }

    private void accumulate(Postings postings, double factor) {
        for (int i = 0, n = postings.size(); i < n; i++) {
            int slot = postings.slot(i);
            if (!seen[slot]) {
                seen[slot] = true;
                touched[touchedCount++] = slot;
            }
            acc[slot] += factor * postings.weight(i);
        }
    }

    private void ensureCapacity(int n) {
        if (acc.length < n) {
            int size = Math.max(n, acc.length * 2);
            acc = new double[size];
            seen = new boolean[size];
            touched = new int[size];
        }
    }

    private void reset() {
        for (int i = 0; i < touchedCount; i++) {
            acc[touched[i]] = 0;
            seen[touched[i]] = false;
        }
        touchedCount = 0;
    }
}
