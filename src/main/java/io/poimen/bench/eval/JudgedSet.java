package io.poimen.bench.eval;

import java.util.Map;

/**
 * Judged questions over an ingested vault, as {@link BeirBenchmark} asks and scores them: a BEIR set (one note
 * per document, {@link #of}) or a real vault judged per section ({@link JudgedVault}).
 */
public interface JudgedSet {
    String name();

    /** Query id → text, the judged queries only, in order. */
    Map<String, String> judgedQueries();

    /** Query id → judged document → grade (0: judged not relevant). */
    Map<String, Map<String, Integer>> qrels();

    /** The project question {@code queryId} is asked in. */
    String project(String queryId);

    /** The judged document a chunk (or a result) at {@code path} under {@code heading} belongs to; null: none. */
    String document(String path, String heading);

    /** A BEIR set written as a vault, one note per document ({@code idByPath}: note path → document id). */
    static JudgedSet of(BeirDataset set, Map<String, String> idByPath) {
        return new JudgedSet() {
            @Override
            public String name() {
                return set.name();
            }

            @Override
            public Map<String, String> judgedQueries() {
                return set.judgedQueries();
            }

            @Override
            public Map<String, Map<String, Integer>> qrels() {
                return set.qrels();
            }

            @Override
            public String project(String queryId) {
                return BeirVault.PROJECT;
            }

            @Override
            public String document(String path, String heading) {
                return idByPath.get(path);
            }
        };
    }
}
