package io.poimen.memory.cli;

import io.poimen.memory.retrieval.RetrievalPolicy;
import io.poimen.memory.retrieval.RetrievalSettings;
import io.poimen.memory.retrieval.eval.FusionReplay;
import io.poimen.memory.retrieval.fusion.AdaptiveFusion;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
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
 * set, the grid point best on the other sets (largest worst margin over their best single branch, then mean
 * nDCG@10) is scored on the held-out set.
 */
@Command(name = "replay", description = "Score fusion methods offline on dumped branch lists; leave-one-set-out fit.")
public class BenchReplayCommand implements Callable<Integer> {
    private static final List<String> BRANCHES = List.of("tfidf", "lexical", "semantic");
    static final double[] FULL_RATIO = {0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
    static final double[] POWER = {1, 2};

    @Option(names = "--lexical-bonus", split = ",", defaultValue = "0.05,0.1,0.15,0.2",
            description = "lexical bonuses to fit over (default: ${DEFAULT-VALUE})")
    List<Double> lexicalBonus;

    @Option(names = "--tfidf-bonus", split = ",", defaultValue = "0,0.03",
            description = "TF-IDF bonuses to fit over (default: ${DEFAULT-VALUE})")
    List<Double> tfidfBonus;

    @Option(names = "--dump", required = true, description = "branch dump of one set (repeat for each set)")
    List<Path> dumps;

    @Option(names = "--policy", defaultValue = "policies/retrieval.yaml", description = "retrieval policy to use")
    Path policy;

    /** One grid point of the adaptive fusion. */
    record Params(double fullRatio, double power, double lexicalBonus, double tfidfBonus) {
        AdaptiveFusion fusion() {
            return new AdaptiveFusion(new CalibratedFusion.Bonuses(lexicalBonus, tfidfBonus),
                    new AdaptiveFusion.Gate(fullRatio, power));
        }

        /** How hard the gate cuts a branch that agrees with no other (larger: harder). */
        double strength() {
            return fullRatio * 100 + power; // ratio first, then power
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "full_ratio %.1f, power %.0f, lex %.2f, tfidf %.2f",
                    fullRatio, power, lexicalBonus, tfidfBonus);
        }
    }

    @Override
    public Integer call() throws Exception {
        RetrievalSettings s = new RetrievalPolicy(policy.toAbsolutePath().getParent()).current();
        List<FusionReplay.Dump> sets = new ArrayList<>();
        for (Path d : dumps) {
            sets.add(FusionReplay.load(d));
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
            for (String m : FusionMethods.names()) {
                System.out.printf("%-18s %-12s %8.4f%n", d.name(), m,
                        FusionReplay.ndcg10(d, FusionMethods.of(m, s.calibration(), s.gate()), s.fusion()));
            }
        }
        List<Params> grid = new ArrayList<>();
        for (double f : FULL_RATIO) {
            for (double p : POWER) {
                for (double l : lexicalBonus) {
                    for (double t : tfidfBonus) {
                        grid.add(new Params(f, p, l, t));
                    }
                }
            }
        }
        double[][] score = new double[grid.size()][sets.size()];
        for (int g = 0; g < grid.size(); g++) {
            for (int i = 0; i < sets.size(); i++) {
                score[g][i] = FusionReplay.ndcg10(sets.get(i), grid.get(g).fusion(), s.fusion());
            }
        }
        System.out.println();
        System.out.println("leave-one-set-out (adaptive; chosen on the other sets, scored on the held-out one):");
        System.out.printf("%-18s %-44s %10s %10s %10s%n", "held out", "chosen on the others", "held-out",
                "best branch", "margin");
        for (int out = 0; out < sets.size(); out++) {
            int g = choose(grid, score, best, out);
            System.out.printf("%-18s %-44s %10.4f %10.4f %+10.4f%n", sets.get(out).name(), grid.get(g),
                    score[g][out], best[out], score[g][out] - best[out]);
        }
        int all = choose(grid, score, best, -1);
        System.out.printf("chosen on all sets: %s (", grid.get(all));
        for (int i = 0; i < sets.size(); i++) {
            System.out.printf("%s%s %.4f", i == 0 ? "" : ", ", sets.get(i).name(), score[all][i]);
        }
        System.out.println(")");
        return 0;
    }

    /**
     * The grid point with the largest worst margin over the best branch on the sets other than {@code out}; among
     * equal ones the best mean nDCG@10, then the hardest gate (as much protection from a noise branch as those
     * sets allow: a gate that changes nothing on them is not evidence that it is not needed elsewhere).
     */
    static int choose(List<Params> grid, double[][] score, double[] best, int out) {
        int chosen = 0;
        double chosenMin = Double.NEGATIVE_INFINITY;
        double chosenMean = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < score.length; g++) {
            double min = Double.POSITIVE_INFINITY;
            double mean = 0;
            for (int i = 0; i < best.length; i++) {
                if (i != out) {
                    min = Math.min(min, score[g][i] - best[i]);
                    mean += score[g][i];
                }
            }
            boolean sameMin = Math.abs(min - chosenMin) <= 1e-9;
            boolean sameMean = Math.abs(mean - chosenMean) <= 1e-9;
            if (min > chosenMin + 1e-9 || (sameMin && mean > chosenMean + 1e-9)
                    || (sameMin && sameMean && grid.get(g).strength() > grid.get(chosen).strength())) {
                chosen = g;
                chosenMin = min;
                chosenMean = mean;
            }
        }
        return chosen;
    }
}
