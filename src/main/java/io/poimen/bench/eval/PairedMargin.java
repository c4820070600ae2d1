package io.poimen.bench.eval;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The hybrid's margin over another method on one set, read per query: how many queries it does better and worse
 * on, and a 90 % paired bootstrap interval of the mean margin (queries drawn with replacement, 2,000 draws, a
 * fixed seed, so the same scores always print the same interval). An interval that holds 0 is a margin the set's
 * questions cannot tell from none.
 */
public record PairedMargin(double margin, int better, int worse, double low, double high) {
    static final int DRAWS = 2_000;

    /** Over the queries both maps score ({@code query id -> nDCG@10}), in query id order. */
    public static PairedMargin of(Map<String, Double> hybrid, Map<String, Double> other) {
        TreeSet<String> ids = new TreeSet<>(hybrid.keySet());
        ids.retainAll(other.keySet());
        double[] diff = ids.stream().mapToDouble(id -> hybrid.get(id) - other.get(id)).toArray();
        if (diff.length == 0) {
            return new PairedMargin(0, 0, 0, 0, 0);
        }
        int better = (int) Arrays.stream(diff).filter(d -> d > 0).count();
        int worse = (int) Arrays.stream(diff).filter(d -> d < 0).count();
        SplittableRandom random = new SplittableRandom(1);
        double[] means = new double[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            double sum = 0;
            for (int j = 0; j < diff.length; j++) {
                sum += diff[random.nextInt(diff.length)];
            }
            means[i] = sum / diff.length;
        }
        Arrays.sort(means);
        return new PairedMargin(Arrays.stream(diff).average().orElse(0), better, worse,
                means[(int) (0.05 * (DRAWS - 1))], means[(int) Math.ceil(0.95 * (DRAWS - 1))]);
    }
}
