package io.poimen.memory.index.tfidf;

import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import io.poimen.memory.vault.LinkText;
import io.poimen.memory.vault.Terms;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The analyzed form of one chunk, computed outside the index lock.
 *
 * @param terms     distinct terms of the chunk's own text (its links' references left out, {@link LinkText}), plus metadata terms the text lacks (with tf 1)
 * @param weights   per term {@code (1 + ln tf) / norm}, where {@code norm = sqrt(Σ (1 + ln tf)²)} over the chunk's
 *                  terms; the norm leaves IDF out (like Lucene's length norm), so it never changes when other chunks
 *                  are written
 * @param metaTerms distinct terms of the chunk's key terms and heading (the metadata scope)
 * @param keyTerms  the chunk's key terms as written, and {@code category} its category (may be null): what the
 *                  metadata boosts of the TF-IDF branch need, kept here so the branch reads no chunk row
 */
record ChunkTerms(String[] terms, float[] weights, String[] metaTerms, java.util.List<String> keyTerms,
                  String category) {

    static ChunkTerms of(Chunk chunk) {
        Map<String, Integer> tf = new LinkedHashMap<>();
        for (String t : Terms.analyze(LinkText.of(chunk.text()).own())) {
            tf.merge(t, 1, Integer::sum);
        }
        String[] metaTerms = metaTerms(chunk);
        for (String m : metaTerms) {
            tf.putIfAbsent(m, 1); // a heading or key term missing from the text still belongs to the chunk
        }
        String[] terms = tf.keySet().toArray(String[]::new);
        double[] logTf = tf.values().stream().mapToDouble(f -> 1 + Math.log(f)).toArray();
        double norm = Math.sqrt(java.util.Arrays.stream(logTf).map(x -> x * x).sum());
        float[] weights = new float[terms.length];
        for (int i = 0; i < terms.length; i++) {
            weights[i] = (float) (logTf[i] / norm);
        }
        ChunkMetadata m = chunk.metadata();
        return new ChunkTerms(terms, weights, metaTerms,
                m == null || m.keyTerms() == null ? java.util.List.of() : java.util.List.copyOf(m.keyTerms()),
                m == null ? null : m.category());
    }

    private static String[] metaTerms(Chunk chunk) {
        Set<String> meta = new LinkedHashSet<>(Terms.analyze(chunk.heading()));
        ChunkMetadata m = chunk.metadata();
        if (m != null) {
            meta.addAll(Terms.analyze(m.heading()));
            if (m.keyTerms() != null) {
                m.keyTerms().forEach(k -> meta.addAll(Terms.analyze(k)));
            }
        }
        return meta.toArray(String[]::new);
    }
}
