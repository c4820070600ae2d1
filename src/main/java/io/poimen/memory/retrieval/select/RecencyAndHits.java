package io.poimen.memory.retrieval.select;

/**
 * The recency and hit factors of the TF-IDF branch ("TF-IDF + recency + hits" of the design notes), which multiply
 * a chunk's TF-IDF score after the metadata boosts ({@code boosts.recency} and {@code boosts.hits} of
 * {@code policies/retrieval.yaml}):
 * <pre>
 *   factor(c) = (1 + w_r · 2^(−age(c) / H)) · (1 + w_h · n(c) / (n(c) + N))
 *   age(c)    = max(0, now − t(c)), in days
 * </pre>
 * {@code t(c)}: when the chunk's note last changed (its last commit in a git vault, else its file time; a chunk
 * whose time is not known gets no recency term); {@code H}: the half-life in days (a note that changed {@code H}
 * days ago gets half the recency bonus of one that changed now); {@code n(c)}: how often the chunk was selected into
 * a context of the query's project; {@code N}: the count at which the hit bonus is half its most. Each term is in
 * [0, 1), so a score grows by at most {@code (1 + w_r) · (1 + w_h)}; each factor depends on its own chunk only.
 * Both weights are 0 by default: the factor is then exactly 1 and the branch does not look at times or counts.
 *
 * @param recencyWeight {@code w_r} ≥ 0
 * @param halfLifeDays  {@code H} &gt; 0
 * @param hitWeight     {@code w_h} ≥ 0
 * @param halfCount     {@code N} &gt; 0
 */
public record RecencyAndHits(double recencyWeight, double halfLifeDays, double hitWeight, double halfCount) {
    public static final RecencyAndHits OFF = new RecencyAndHits(0, 30, 0, 10);
    private static final double DAY_MS = 86_400_000.0;

    public RecencyAndHits {
        check("recency weight", recencyWeight, true);
        check("recency half-life", halfLifeDays, false);
        check("hit weight", hitWeight, true);
        check("hit half count", halfCount, false);
    }

    private static void check(String what, double v, boolean zeroAllowed) {
        if (!Double.isFinite(v) || v < 0 || (!zeroAllowed && v == 0)) {
            throw new IllegalArgumentException(what + " must be a finite number " + (zeroAllowed ? "≥ 0" : "> 0")
                    + ", got " + v);
        }
    }

    public boolean recencyOn() {
        return recencyWeight > 0;
    }

    public boolean hitsOn() {
        return hitWeight > 0;
    }

    /**
     * @param noteTimeMillis when the note last changed (epoch ms), negative when not known
     * @param hits           times the chunk was selected for the project
     * @param nowMillis      now (epoch ms)
     */
    public double factor(long noteTimeMillis, long hits, long nowMillis) {
        double recency = 0;
        if (recencyOn() && noteTimeMillis >= 0) {
            double ageDays = Math.max(0, nowMillis - noteTimeMillis) / DAY_MS;
            recency = Math.pow(2, -ageDays / halfLifeDays);
        }
        double used = hitsOn() && hits > 0 ? hits / (hits + halfCount) : 0;
        return (1 + recencyWeight * recency) * (1 + hitWeight * used);
    }
}
