package io.poimen.memory.index.ingest;

import java.util.List;
import java.util.Map;

/**
 * Summary of one ingest run.
 *
 * @param files           files seen in the vault (all kinds)
 * @param notes           markdown notes in the index after the run
 * @param changed         notes (re)indexed by this run
 * @param removed         notes deleted from every index by this run
 * @param chunks          chunks embedded and written by this run
 * @param links           wiki-links in the graph after the run
 * @param unresolvedLinks links that resolve to no file, listed as "source -> [[raw]]" (a markdown link as written)
 * @param problems        files that were skipped or partly read, by path
 * @param seconds         wall time of the run
 * @param stepMillis      time spent in each step (plan, parse, embed, vectors, lexical, notes, tfidf, relink)
 */
public record IngestReport(int files, int notes, int changed, int removed, int chunks, int links,
                           List<String> unresolvedLinks, List<IngestProblem> problems, double seconds,
                           Map<String, Long> stepMillis) {

    public double chunksPerSecond() {
        return seconds > 0 ? chunks / seconds : 0;
    }
}
