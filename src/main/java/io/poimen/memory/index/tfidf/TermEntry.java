package io.poimen.memory.index.tfidf;

import java.util.Arrays;

/** Everything the index knows about one term: text postings, metadata postings and document frequency per bucket. */
final class TermEntry {
    final Postings text = new Postings();
    final Postings meta = new Postings();
    private int[] bucketDf = new int[2];

    void count(int bucket, int delta) {
        if (bucket >= bucketDf.length) {
            bucketDf = Arrays.copyOf(bucketDf, bucket + 1);
        }
        bucketDf[bucket] += delta;
    }

    /** Chunks of {@code bucket} whose text holds the term. */
    int df(int bucket) {
        return bucket >= 0 && bucket < bucketDf.length ? bucketDf[bucket] : 0;
    }

    /** Chunks whose text holds the term, over all buckets. */
    int df() {
        return text.size();
    }

    boolean isEmpty() {
        return text.size() == 0 && meta.size() == 0;
    }
}
