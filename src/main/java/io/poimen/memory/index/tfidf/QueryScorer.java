package io.poimen.memory.index.tfidf;

import io.poimen.memory.index.Hit;
import java.util.BitSet;
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

    static List<Hit> search(InvertedIndex index, HiddenChunks hiddenChunks, ScopeSlots scopes, double metadataWeight,
                            Map<String, Integer> qtf, String project, Set<String> scopePaths,
                            Predicate<String> readable, int k) {
        QueryScorer scorer = PER_THREAD.get();
        try {
            BitSet scope = scopePaths == null ? null : scopes.of(scopePaths, index.table());
            return scorer.score(index, hiddenChunks, metadataWeight, qtf, project, scopePaths, scope, readable, k);
        } finally {
            scorer.reset();
        }
    }

    private List<Hit> score(InvertedIndex index, HiddenChunks hiddenChunks, double metadataWeight,
                            Map<String, Integer> qtf, String project, Set<String> scopePaths, BitSet scope,
                            Predicate<String> readable, int k) {
        ensureCapacity(index.table().highWater());
        int bucket = index.bucketOf(project);
        HiddenChunks.Hidden hidden = readable == null ? HiddenChunks.Hidden.NONE
                : hiddenChunks.of(index, bucket, readable);
        qtf.forEach((term, count) -> {
            TermEntry e = index.entry(term);
            if (e != null) {
                double idf = index.idf(e, bucket, hidden.slots(), hidden.inBuckets());
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
            if (top.mayEnter(acc[slot]) && (scopePaths == null
                    || (scope != null ? scope.get(slot) : scopePaths.contains(table.path(slot))))) {
                top.offer(table.id(slot), acc[slot]);
            }
        }
        return top.best();
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
