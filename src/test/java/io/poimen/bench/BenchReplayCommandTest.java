package io.poimen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.bench.eval.BeirFolders;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchReplayCommandTest {
    private static final List<BenchReplayCommand.Params> GRID = List.of(
            new BenchReplayCommand.Params(0.5, 8, 0.1, 0, CalibratedFusion.Unit.COSINE),
            new BenchReplayCommand.Params(0.2, 2, 0.1, 0, CalibratedFusion.Unit.COSINE),
            new BenchReplayCommand.Params(0.8, 16, 0.1, 0, CalibratedFusion.Unit.COSINE));
    // two sets, then their noise variants, then their lexical-noise variants: set i's columns are i, 2 + i, 4 + i
    private static final double[] REFERENCE = {0.8, 0.9, 0.7, 0.8, 0.6, 0.9};

    @Test
    void theFitReadsEveryVariantKindOfTheTrainingSetsAndNoneOfTheHeldOutOnes() {
        double[][] score = {
                {0.8, 0.9, 0.7, 0.8, 0.6, 0.0},  // 0: only set 1's lexical-noise variant fails
                {0.8, 0.9, 0.7, 0.8, 0.1, 0.9},  // 1: only set 0's lexical-noise variant fails
                {0.8, 0.9, 0.2, 0.8, 0.6, 0.9}}; // 2: only set 0's noise variant fails
        // held out set 0: its noise and lexical-noise columns are not read, so 1 and 2 tie with 0 failing; 1 is
        // the gentler gate
        assertThat(BenchReplayCommand.choose(GRID, score, REFERENCE, 2, 0)).isEqualTo(1);
        // held out set 1: point 0's one failure is set 1's own lexical-noise variant
        assertThat(BenchReplayCommand.choose(GRID, score, REFERENCE, 2, 1)).isEqualTo(0);
        // in-sample every column counts: each point fails one, point 0 by most (0.9), point 1 by 0.5, point 2 by 0.5
        assertThat(BenchReplayCommand.choose(GRID, score, REFERENCE, 2, -1)).isEqualTo(1);
    }
    /**
     * {@code bench replay} resolves the policy's {@code bonus_unit: auto} and {@code --bonus-unit auto} for
     * {@code --embedding-model} as the hub does: spread for e5-small-v2-q, cosine for all-minilm-l6-v2-q.
     */
    @Test
    void replayResolvesAutoForTheEmbeddingModelAsTheHubDoes(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("one.json");
        Files.writeString(dump, """
                {"dataset": "one", "doc_by_chunk": {"a": "a", "b": "b"}, "qrels": {"q": {"b": 1}},
                 "queries": {"q": {"text": "a question", "branches": {
                   "semantic": [["a", 0.90], ["b", 0.89]], "lexical": [["b", 9.0], ["a", 1.0]]}}}}
                """);
        String e5 = replay("--dump", dump.toString(), "--embedding-model", "e5-small-v2-q", "--bonus-unit", "auto");
        String minilm = replay("--dump", dump.toString(), "--bonus-unit", "auto");
        assertThat(line(e5, "policy's own:")).contains("×spread");
        assertThat(line(minilm, "policy's own:")).doesNotContain("×spread");
        assertThat(line(e5, "chosen on all sets")).contains("×spread");
        assertThat(line(minilm, "chosen on all sets")).doesNotContain("×spread");
    }

    /**
     * With {@code --corpus-dir} the replay scores the gate's coverage keep: BM25 and TF-IDF agree on chunks that
     * miss, the dense list (no chunk in common, so the gate cuts it) holds the answer and the question's words.
     */
    @Test
    void withTheSetsCorpusTheReplayScoresTheGatesCoverageKeep(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("keepset.json");
        Files.writeString(dump, keepDump("keepset", null, null));
        writeKeepCorpus(dir.resolve("sets"), "keepset");

        String without = replay("--dump", dump.toString(), "--no-lexical-noise", "--lexical-bonus", "0.1");
        String with = replay("--dump", dump.toString(), "--no-lexical-noise", "--lexical-bonus", "0.1",
                "--corpus-dir", dir.resolve("sets").toString());
        // without the keep the dense list is cut: its answer comes only after the lexical lists' chunks
        assertThat(last(line(without, "keepset            adaptive"))).isLessThan(0.3);
        assertThat(last(line(with, "keepset            adaptive"))).isEqualTo(1.0);
        assertThat(new CommandLine(new BenchReplayCommand()).execute("--dump", dump.toString(), "--corpus-dir",
                dir.resolve("nowhere").toString())).isEqualTo(2);
        assertThat(new CommandLine(new BenchReplayCommand()).execute("--dump", dump.toString(), "--depth", "0"))
                .isEqualTo(2);
    }

    /**
     * A dump of {@code bench beir} holds each query's term shares as the hub read them, so the replay scores the
     * coverage keep without a corpus folder, {@code --corpus-dir} does not ask for one, and the dumped shares win
     * over a corpus's.
     */
    @Test
    void aDumpHoldingItsTermSharesScoresTheKeepWithoutACorpus(@TempDir Path dir) throws Exception {
        Path covered = dir.resolve("covered.json");
        Path uncovered = dir.resolve("uncovered.json");
        Files.writeString(covered, keepDump("covered", 0.9, 0.6));
        Files.writeString(uncovered, keepDump("uncovered", 0.0, 0.6));

        String kept = replay("--dump", covered.toString(), "--no-lexical-noise", "--lexical-bonus", "0.1",
                "--corpus-dir", dir.resolve("no-sets-here").toString());
        String cut = replay("--dump", uncovered.toString(), "--no-lexical-noise", "--lexical-bonus", "0.1");
        assertThat(last(line(kept, "covered            adaptive"))).isEqualTo(1.0);
        assertThat(last(line(cut, "uncovered          adaptive"))).isLessThan(0.3);
        // the corpus would let the dense list cover the question (the previous test); the hub's shares say not
        writeKeepCorpus(dir.resolve("sets"), "uncovered");
        String dumpedWins = replay("--dump", uncovered.toString(), "--no-lexical-noise", "--lexical-bonus", "0.1",
                "--corpus-dir", dir.resolve("sets").toString());
        assertThat(last(line(dumpedWins, "uncovered          adaptive"))).isLessThan(0.3);
    }

    /** A BEIR folder {@code <sets>/<name>} whose corpus gives the keep set's dense chunks the question's words. */
    private static void writeKeepCorpus(Path sets, String name) throws java.io.IOException {
        StringBuilder corpus = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            corpus.append("{\"_id\": \"r").append(i).append("\", \"text\": \"why a pod restarts after a crash\"}\n");
            corpus.append("{\"_id\": \"w").append(i).append("\", \"text\": \"pod crash restart loop\"}\n");
            corpus.append("{\"_id\": \"n").append(i).append("\", \"text\": \"release notes ").append(i).append("\"}\n");
        }
        BeirFolders.write(sets.resolve(name), corpus, "", "");
    }

    /**
     * The keep set: the dense list r0..r9 holds the answer r0, BM25 and TF-IDF agree on w0..w9; with dumped shares
     * {@code own} for the dense list's chunks and {@code bm25} for the others (null: no shares in the dump).
     */
    private static String keepDump(String name, Double own, Double bm25) {
        StringBuilder docs = new StringBuilder();
        StringBuilder semantic = new StringBuilder();
        StringBuilder lexical = new StringBuilder();
        StringBuilder tfidf = new StringBuilder();
        StringBuilder shares = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            String sep = i == 0 ? "" : ", ";
            docs.append(sep).append("\"r").append(i).append("\": \"r").append(i).append("\", \"w").append(i)
                    .append("\": \"w").append(i).append("\"");
            semantic.append(sep).append("[\"r").append(i).append("\", ").append(0.9 - i * 0.05).append("]");
            lexical.append(sep).append("[\"w").append(i).append("\", ").append(20.0 - i).append("]");
            tfidf.append(sep).append("[\"w").append(i).append("\", ").append(9.0 - i * 0.5).append("]");
            shares.append(sep).append("\"r").append(i).append("\": ").append(own).append(", \"w").append(i)
                    .append("\": ").append(bm25);
        }
        return "{\"dataset\": \"" + name + "\", \"doc_by_chunk\": {" + docs + "}, \"qrels\": {\"q\": {\"r0\": 1}},"
                + " \"queries\": {\"q\": {\"text\": \"why does a pod restart after a crash\", \"project\": \"p\","
                + " \"branches\": {\"semantic\": [" + semantic + "], \"lexical\": [" + lexical + "], \"tfidf\": ["
                + tfidf + "]}" + (own == null ? "" : ", \"shares\": {" + shares + "}") + "}}}";
    }

    private static String replay(String... args) {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThat(new CommandLine(new BenchReplayCommand()).execute(args)).isZero();
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static double last(String line) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static String line(String output, String start) {
        return output.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow(() -> new AssertionError(output));
    }

    @Test
    void theGridCarriesEachLexicalLeadIntoTheFusionItScores() {
        List<BenchReplayCommand.Params> grid = BenchReplayCommand.grid(List.of(0.1), List.of(0.0),
                CalibratedFusion.Unit.COSINE, List.of(0.0, 0.4));
        assertThat(grid).hasSize(BenchReplayCommand.FULL_RATIO.length * BenchReplayCommand.POWER.length * 2);
        assertThat(grid).extracting(BenchReplayCommand.Params::lexicalLead).containsOnly(0.0, 0.4);
        // a lead changes the order the point scores: BM25's clear winner q0 goes first
        List<io.poimen.memory.retrieval.branch.BranchResult> lists = List.of(
                io.poimen.memory.retrieval.branch.BranchResult.ok(io.poimen.memory.retrieval.branch.Branch.LEXICAL,
                        List.of(new io.poimen.memory.index.Hit("q0", 9.0), new io.poimen.memory.index.Hit("s0", 2.0),
                                new io.poimen.memory.index.Hit("s1", 1.0)), 1),
                io.poimen.memory.retrieval.branch.BranchResult.ok(io.poimen.memory.retrieval.branch.Branch.SEMANTIC,
                        List.of(new io.poimen.memory.index.Hit("s0", 0.9), new io.poimen.memory.index.Hit("s1", 0.5),
                                new io.poimen.memory.index.Hit("q0", 0.1)), 1));
        io.poimen.memory.retrieval.fusion.FusionSettings settings =
                io.poimen.memory.retrieval.fusion.FusionSettings.defaults().withMethod("adaptive");
        BenchReplayCommand.Params off = new BenchReplayCommand.Params(0.5, 8, 0.1, 0, CalibratedFusion.Unit.COSINE);
        BenchReplayCommand.Params on = new BenchReplayCommand.Params(0.5, 8, 0.1, 0, CalibratedFusion.Unit.COSINE, 0.4);
        assertThat(off.fusion().fuse(lists, settings).get(0).chunkId()).isEqualTo("s0");
        assertThat(on.fusion().fuse(lists, settings).get(0).chunkId()).isEqualTo("q0");
        assertThat(on.toString()).endsWith(", lead 0.40");
    }
}
