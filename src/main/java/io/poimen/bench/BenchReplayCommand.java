package io.poimen.bench;

import io.poimen.memory.retrieval.RetrievalPolicy;
import io.poimen.memory.retrieval.RetrievalSettings;
import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.CorpusTermShares;
import io.poimen.bench.eval.FusionReplay;
import io.poimen.memory.retrieval.fusion.AdaptiveFusion;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
import io.poimen.memory.retrieval.fusion.FusionMethod;
import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.index.ModelScripts;
import io.poimen.memory.retrieval.fusion.FusionMethods;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench replay --dump A.json --dump B.json ...}: every fusion method on dumped branch lists
 * ({@code bench beir --dump-branches}), and the adaptive fusion's parameters fitted leave-one-set-out: for each
 * set, the grid point best on the other sets is scored on the held-out set. The other sets count twice: as they
 * are, and with a semantic branch that returns noise ({@link FusionReplay#withNoiseSemantic}), whose reference is
 * the lexical branch (what the fusion gives when the gate leaves the noise out), and with lexical branches that
 * agree but miss ({@link FusionReplay#withLexicalNoise}, on unless {@code --no-lexical-noise}), whose reference is
 * the semantic branch. Best = largest worst margin over those references, then mean nDCG@10 of the real sets, then
 * the gentlest gate (it cuts the fewest lists that might be right). A dump of {@code bench beir} holds, per
 * question, the term share of every chunk in its lists as the hub's TF-IDF index gives it, which the gate's
 * coverage keep ({@code fusion.adaptive.keep_coverage}) reads as the hub does. With {@code --corpus-dir} each BEIR
 * set's corpus gives the shares of chunks a dump does not hold ({@link CorpusTermShares}, per document: those a
 * noise variant borrows from another question, or every chunk of a dump made before dumps held shares); without
 * it they count 0, and the keep is left out of a dump without shares.
 */
@Command(name = "replay", description = "Score fusion methods offline on dumped branch lists; leave-one-set-out fit.")
public class BenchReplayCommand implements Callable<Integer> {
    private static final List<String> BRANCHES = List.of("tfidf", "lexical", "semantic");
    static final double[] FULL_RATIO = {0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.8, 1.0};
    static final double[] POWER = {1, 2, 4, 8, 16, 32};
    static final List<Double> LEXICAL_BONUSES = List.of(0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15);

    @Option(names = "--lexical-bonus", split = ",", defaultValue = "0.01,0.02,0.03,0.05,0.07,0.1,0.15",
            description = "lexical bonuses to fit over (default: ${DEFAULT-VALUE})")
    List<Double> lexicalBonus;

    @Option(names = "--tfidf-bonus", split = ",", defaultValue = "0",
            description = "TF-IDF bonuses to fit over (default: ${DEFAULT-VALUE})")
    List<Double> tfidfBonus;

    @Option(names = "--lexical-lead", split = ",", defaultValue = "0",
            description = "lexical leads (fusion.adaptive.lexical_lead, 0 = off) to fit over (default: ${DEFAULT-VALUE})")
    List<Double> lexicalLead;

    @Option(names = "--bonus-unit", defaultValue = "cosine",
            description = "unit of the fitted bonuses: cosine, spread (a fraction of the query's semantic "
                    + "spread), or auto (cosine for all-minilm-l6-v2-q, spread for any other --embedding-model) "
                    + "(default: ${DEFAULT-VALUE})")
    String bonusUnit;

    @Option(names = "--noise-draws", defaultValue = "1",
            description = "random draws of each training set's noise variant, scored together (default: ${DEFAULT-VALUE})")
    int noiseDraws;

    @Option(names = "--lexical-noise", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "also fit on each training set's lexical-noise variant (default: ${DEFAULT-VALUE})")
    boolean lexicalNoise;

    @Option(names = "--depth", description = "cut each dumped branch list to its first N hits before fusing, as a "
            + "hub asked for N candidates per branch would answer (default: the lists as dumped)")
    Integer depth;

    @Option(names = "--dump", required = true, description = "branch dump of one set (repeat for each set)")
    List<Path> dumps;

    @Option(names = "--policy", defaultValue = "policies/retrieval.yaml", description = "retrieval policy to use")
    Path policy;

    @Option(names = "--embedding-model", defaultValue = "all-minilm-l6-v2-q",
            description = "the embedding model the dumps were made with (poimen.embedding.model): the scripts it "
                    + "reads decide fusion.adaptive.model_scripts on the sets (default: ${DEFAULT-VALUE})")
    String embeddingModel;

    @Option(names = "--model-scripts", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "fit with fusion.adaptive.model_scripts on (default: ${DEFAULT-VALUE})")
    boolean modelScripts;

    @Option(names = "--corpus-dir", description = "folder holding each dumped set's BEIR folder (<dir>/<set>/"
            + "corpus.jsonl): its text gives the adaptive gate's coverage keep its term shares; without it the keep"
            + " is left out; a dump's own shares come first, the corpus gives those of chunks a noise variant borrows")
    Path corpusDir;

    /** One grid point of the adaptive fusion. */
    record Params(double fullRatio, double power, double lexicalBonus, double tfidfBonus,
                  CalibratedFusion.Unit unit, double lexicalLead, boolean modelScripts) {
        Params(double fullRatio, double power, double lexicalBonus, double tfidfBonus, CalibratedFusion.Unit unit) {
            this(fullRatio, power, lexicalBonus, tfidfBonus, unit, 0);
        }

        Params(double fullRatio, double power, double lexicalBonus, double tfidfBonus, CalibratedFusion.Unit unit,
               double lexicalLead) {
            this(fullRatio, power, lexicalBonus, tfidfBonus, unit, lexicalLead, true);
        }

        AdaptiveFusion fusion() {
            return fusion(true);
        }

        /** The fusion for a query the embedding model reads ({@code semanticReadsQuery}) or not. */
        AdaptiveFusion fusion(boolean semanticReadsQuery) {
            return fusion(semanticReadsQuery, null);
        }

        /** As above, with the query's term shares for the gate's coverage keep (null: the keep is left out). */
        AdaptiveFusion fusion(boolean semanticReadsQuery, java.util.function.ToDoubleFunction<String> shares) {
            return new AdaptiveFusion(new CalibratedFusion.Bonuses(lexicalBonus, tfidfBonus).withUnit(unit),
                    new AdaptiveFusion.Gate(fullRatio, power, lexicalLead, modelScripts), semanticReadsQuery, shares);
        }

        /** How hard the gate cuts a branch that agrees with no other (larger: harder). */
        double strength() {
            return fullRatio * 100 + power; // ratio first, then power
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "full_ratio %.2f, power %.0f, lex %.2f, tfidf %.2f%s%s",
                    fullRatio, power, lexicalBonus, tfidfBonus, unit == CalibratedFusion.Unit.SPREAD ? " ×spread" : "",
                    lexicalLead > 0 ? String.format(java.util.Locale.ROOT, ", lead %.2f", lexicalLead) : "")
                    + (modelScripts ? "" : ", model_scripts off");
        }
    }

    @Override
    public Integer call() throws Exception {
        EmbeddingModelChoice model;
        try {
            model = EmbeddingModelChoice.of(embeddingModel);
        } catch (RuntimeException e) {
            System.err.println("error: --embedding-model: " + e.getMessage());
            return 2;
        }
        ModelScripts scripts = model.scripts();
        // the policy's bonus_unit: auto resolved for the dumps' model, as the hub resolves it for its own
        RetrievalSettings s = new RetrievalPolicy(policy.toAbsolutePath().getParent(), model).current();
        CalibratedFusion.Unit unit;
        try {
            unit = CalibratedFusion.Unit.of(bonusUnit).forModel(model);
        } catch (IllegalArgumentException e) {
            System.err.println("error: --bonus-unit must be auto, cosine or spread, got " + bonusUnit);
            return 2;
        }
        if (depth != null && depth < 1) {
            System.err.println("error: --depth must be at least 1, got " + depth);
            return 2;
        }
        List<FusionReplay.Dump> sets = new ArrayList<>();
        for (Path d : dumps) {
            FusionReplay.Dump dump = FusionReplay.load(d);
            if (depth != null) {
                dump = FusionReplay.firstHits(dump, depth);
            }
            boolean holdsShares = dump.queries().stream().allMatch(q -> q.shares() != null);
            Path set = corpusDir == null ? null : corpusDir.resolve(dump.name());
            if (set != null && java.nio.file.Files.isRegularFile(set.resolve("corpus.jsonl"))) {
                dump = dump.withShares(new CorpusTermShares(BeirDataset.load(set).corpus()));
            } else if (set != null && !holdsShares) {
                System.err.println("error: --corpus-dir: no " + set.resolve("corpus.jsonl") + " for dump " + d);
                return 2;
            }
            sets.add(dump);
        }
        System.out.printf("%-18s %-12s %8s%n", "set", "method", "nDCG@10");
        double[] best = new double[sets.size()];
        for (int i = 0; i < sets.size(); i++) {
            FusionReplay.Dump d = sets.get(i);
            for (String b : BRANCHES) {
                double n = FusionReplay.ndcg10(d, b);
                best[i] = Math.max(best[i], n);
                System.out.printf("%-18s %-12s %8.4f%n", d.name(), b, n);
            }
            List<FusionMethod> methods = new ArrayList<>();
            for (String m : FusionMethods.names()) {
                methods.add(FusionMethods.of(m, s.calibration(), s.gate()));
                System.out.printf("%-18s %-12s %8.4f%n", d.name(), m, FusionReplay.ndcg10(d,
                        q -> FusionMethods.of(m, s.calibration(), s.gate(), scripts.reads(q.text()), d.sharesFor(q)),
                        s.fusion()));
            }
            // upper bounds read with the judgments: what choosing per query among these rankings could reach
            System.out.printf("%-18s %-12s %8.4f   (bound: per query the best of the branches)%n", d.name(),
                    "best-branch", FusionReplay.perQueryBest(d, BRANCHES, List.of(), s.fusion()));
            System.out.printf("%-18s %-12s %8.4f   (bound: per query the best of the branches and the methods)%n",
                    d.name(), "best-any", FusionReplay.perQueryBest(d, BRANCHES, methods, s.fusion()));
        }
        List<Params> grid = withModelScripts(grid(lexicalBonus, tfidfBonus, unit, lexicalLead), modelScripts);
        Fit fit = fit(sets, grid, noiseDraws, lexicalNoise, s.fusion(), scripts);
        System.out.println();
        printHeldOut(fit);
        int n = sets.size();
        double[][] score = fit.score();
        double[] reference = fit.reference();
        List<FusionReplay.Dump> columns = fit.columns();
        int all = choose(grid, score, reference, n, -1);
        System.out.printf("chosen on all sets (in-sample): %s (", grid.get(all));
        for (int i = 0; i < columns.size(); i++) {
            System.out.printf("%s%s %.4f (%+.4f)", i == 0 ? "" : ", ", columns.get(i).name(), score[all][i],
                    score[all][i] - reference[i]);
        }
        System.out.println(")");
        Params shipped = new Params(s.gate().fullRatio(), s.gate().power(), s.calibration().lexical(),
                s.calibration().tfidf(), s.calibration().unit(), s.gate().lexicalLead(), s.gate().modelScripts());
        System.out.printf("policy's own: %s (", shipped);
        for (int i = 0; i < columns.size(); i++) {
            double v = FusionReplay.ndcg10(columns.get(i), fusion(shipped, i < n ? scripts : ModelScripts.ANY,
                    columns.get(i)), s.fusion());
            System.out.printf("%s%s %.4f (%+.4f)", i == 0 ? "" : ", ", columns.get(i).name(), v, v - reference[i]);
        }
        System.out.println(")");
        return 0;
    }

    /** Every grid point of the adaptive fusion over the given bonuses. */
    static List<Params> grid(List<Double> lexicalBonuses, List<Double> tfidfBonuses, CalibratedFusion.Unit unit) {
        return grid(lexicalBonuses, tfidfBonuses, unit, List.of(0.0));
    }

    /** Every grid point of the adaptive fusion over the given bonuses and lexical leads. */
    static List<Params> grid(List<Double> lexicalBonuses, List<Double> tfidfBonuses, CalibratedFusion.Unit unit,
                             List<Double> leads) {
        List<Params> grid = new ArrayList<>();
        for (double f : FULL_RATIO) {
            for (double p : POWER) {
                for (double l : lexicalBonuses) {
                    for (double t : tfidfBonuses) {
                        for (double lead : leads) {
                            grid.add(new Params(f, p, l, t, unit, lead));
                        }
                    }
                }
            }
        }
        return grid;
    }

    /**
     * Scores of every grid point on every column: the sets (0..n-1), their noise variants (n..2n-1) and, with
     * {@code lexicalNoise}, their lexical-noise variants (2n..3n-1); each column's reference (a set's best branch,
     * a noise variant's lexical branch, a lexical-noise variant's semantic branch).
     */
    record Fit(List<FusionReplay.Dump> sets, List<FusionReplay.Dump> columns, List<Params> grid, double[] best,
               double[] reference, double[][] score) {
    }

    /**
     * The leave-one-set-out fit {@code bench beir} prints: the adaptive grid over {@link #LEXICAL_BONUSES} in the
     * policy's bonus unit, with the policy's script rule and the model's scripts (as the hub fuses), one noise
     * draw, the lexical-noise variants.
     */
    static Fit leaveOneSetOut(List<FusionReplay.Dump> sets, io.poimen.memory.retrieval.RetrievalSettings s,
                              ModelScripts scripts) {
        List<Params> grid = withModelScripts(grid(LEXICAL_BONUSES, List.of(0.0), s.calibration().unit()),
                s.gate().modelScripts());
        return fit(sets, grid, 1, true, s.fusion(), scripts);
    }

    /** The grid's points with the script rule on or off. */
    static List<Params> withModelScripts(List<Params> grid, boolean modelScripts) {
        return grid.stream().map(p -> new Params(p.fullRatio(), p.power(), p.lexicalBonus(), p.tfidfBonus(), p.unit(),
                p.lexicalLead(), modelScripts)).toList();
    }

    /**
     * The leave-one-set-out fit, with the script rule on the real sets: a point with {@code modelScripts} gives no
     * weight to the semantic list of a query written mostly outside {@code scripts}. The variants are scored without
     * it: they simulate what a branch's lists do, and the script of their borrowed text says nothing about that.
     */
    static Fit fit(List<FusionReplay.Dump> sets, List<Params> grid, int noiseDraws, boolean lexicalNoise,
                   io.poimen.memory.retrieval.fusion.FusionSettings settings, ModelScripts scripts) {
        int n = sets.size();
        double[] best = new double[n];
        List<FusionReplay.Dump> columns = new ArrayList<>(sets);
        List<Double> references = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (String b : BRANCHES) {
                best[i] = Math.max(best[i], FusionReplay.ndcg10(sets.get(i), b));
            }
            references.add(best[i]);
        }
        for (FusionReplay.Dump d : sets) {
            FusionReplay.Dump v = FusionReplay.withNoiseSemantic(d, noiseDraws);
            columns.add(v);
            references.add(FusionReplay.ndcg10(v, "lexical"));
        }
        if (lexicalNoise) {
            for (FusionReplay.Dump d : sets) {
                FusionReplay.Dump v = FusionReplay.withLexicalNoise(d);
                columns.add(v);
                references.add(FusionReplay.ndcg10(v, "semantic"));
            }
        }
        double[] reference = references.stream().mapToDouble(Double::doubleValue).toArray();
        double[][] score = new double[grid.size()][columns.size()];
        java.util.stream.IntStream.range(0, grid.size()).parallel().forEach(g -> {
            for (int i = 0; i < columns.size(); i++) {
                score[g][i] = FusionReplay.ndcg10(columns.get(i),
                        fusion(grid.get(g), i < n ? scripts : ModelScripts.ANY, columns.get(i)), settings);
            }
        });
        return new Fit(sets, columns, grid, best, reference, score);
    }

    /**
     * The point's fusion per query: with its script rule, by whether {@code scripts} reads the query, and with the
     * set's term shares when it has them (the gate's coverage keep).
     */
    private static java.util.function.Function<FusionReplay.Query, io.poimen.memory.retrieval.fusion.FusionMethod>
            fusion(Params p, ModelScripts scripts, FusionReplay.Dump set) {
        return q -> p.fusion(!p.modelScripts() || scripts.reads(q.text()), set.sharesFor(q));
    }

    /** The leave-one-set-out table: per set, the point chosen on the others, scored on it. */
    static void printHeldOut(Fit fit) {
        int n = fit.sets().size();
        System.out.println("leave-one-set-out (adaptive; chosen on the other sets and their variants, scored on"
                + " the held-out one):");
        System.out.printf("%-18s %-46s %10s %10s %10s   %s%n", "held out", "chosen on the others", "held-out",
                "best branch", "margin", "training margins (sets, then each variant kind)");
        for (int out = 0; out < n; out++) {
            int g = choose(fit.grid(), fit.score(), fit.reference(), n, out);
            double held = fit.score()[g][out];
            System.out.printf("%-18s %-46s %10.4f %10.4f %+10.4f   %s%n", fit.sets().get(out).name(),
                    fit.grid().get(g), held, fit.best()[out], held - fit.best()[out],
                    margins(fit.score()[g], fit.reference(), n, out));
        }
    }

    private static String margins(double[] score, double[] reference, int n, int out) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < score.length; i++) {
            if (i % n != out) {
                parts.add(String.format(java.util.Locale.ROOT, "%+.4f", score[i] - reference[i]));
            }
        }
        return String.join(" ", parts);
    }

    /**
     * The grid point with the largest worst margin over {@code reference} on the {@code n} sets other than
     * {@code out} and their variants (column i of set i, then n + i, 2n + i, ... for its variants); among equal
     * ones the best mean nDCG@10 of those sets, then the gentlest gate: the noise variants already ask for the
     * protection, so among points they cannot tell apart the one that cuts the fewest lists is kept.
     */
    static int choose(List<Params> grid, double[][] score, double[] reference, int n, int out) {
        int chosen = 0;
        double chosenMin = Double.NEGATIVE_INFINITY;
        double chosenMean = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < score.length; g++) {
            double min = Double.POSITIVE_INFINITY;
            double mean = 0;
            for (int i = 0; i < reference.length; i++) {
                if (i % n != out) {
                    min = Math.min(min, score[g][i] - reference[i]);
                    mean += i < n ? score[g][i] : 0;
                }
            }
            boolean sameMin = Math.abs(min - chosenMin) <= 1e-9;
            boolean sameMean = Math.abs(mean - chosenMean) <= 1e-9;
            if (min > chosenMin + 1e-9 || (sameMin && mean > chosenMean + 1e-9)
                    || (sameMin && sameMean && grid.get(g).strength() < grid.get(chosen).strength())) {
                chosen = g;
                chosenMin = min;
                chosenMean = mean;
            }
        }
        return chosen;
    }
}
