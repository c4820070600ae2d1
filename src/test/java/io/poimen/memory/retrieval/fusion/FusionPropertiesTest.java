package io.poimen.memory.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

class FusionPropertiesTest {

    @Property
    void weightedScoresLieInZeroOne(@ForAll("branchResults") List<BranchResult> results,
                                    @ForAll @DoubleRange(min = 0, max = 5) double ws,
                                    @ForAll @DoubleRange(min = 0, max = 5) double wl,
                                    @ForAll @DoubleRange(min = 0.01, max = 5) double wt) {
        List<FusedCandidate> fused = new WeightedFusion()
                .fuse(results, new FusionSettings("weighted", ws, wl, wt, 60, Map.of()));
        assertThat(fused).allSatisfy(c -> assertThat(c.score()).isBetween(0.0, 1.0));
        for (int i = 1; i < fused.size(); i++) {
            assertThat(fused.get(i - 1).score()).isGreaterThanOrEqualTo(fused.get(i).score());
        }
    }

    /** If a is ranked above b in every list that has b, and a is in all of them, a never scores below b. */
    @Property
    void rrfIsMonotoneInRank(@ForAll("branchResults") List<BranchResult> results,
                             @ForAll @IntRange(min = 1, max = 200) int k) {
        List<FusedCandidate> fused = new RrfFusion()
                .fuse(results, new FusionSettings("rrf", 0.6, 0.4, 0.2, k, Map.of()));
        Map<String, Double> score = new HashMap<>();
        fused.forEach(c -> score.put(c.chunkId(), c.score()));
        List<String> ids = new ArrayList<>(score.keySet());
        for (String a : ids) {
            for (String b : ids) {
                if (!a.equals(b) && dominates(a, b, results)) {
                    assertThat(score.get(a)).as("%s dominates %s", a, b).isGreaterThanOrEqualTo(score.get(b));
                }
            }
        }
    }

    private static boolean dominates(String a, String b, List<BranchResult> results) {
        for (BranchResult r : results) {
            if (!r.answered()) {
                continue;
            }
            int ra = rank(r, a);
            int rb = rank(r, b);
            if (ra < 0 && rb >= 0 || rb >= 0 && ra > rb) {
                return false;
            }
        }
        return true;
    }

    private static int rank(BranchResult r, String id) {
        for (int i = 0; i < r.hits().size(); i++) {
            if (r.hits().get(i).chunkId().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** Up to four branches (the three built-in ones and one a route added), each a shuffled subset of 12 chunk ids with arbitrary scores; some branches fail. */
    @Provide
    Arbitrary<List<BranchResult>> branchResults() {
        Arbitrary<BranchResult> one = Combinators.combine(
                Arbitraries.of(Branch.TFIDF, Branch.SEMANTIC, Branch.LEXICAL, Branch.ofKey("recent")),
                Arbitraries.longs(),
                Arbitraries.doubles().between(-50, 50).list().ofMaxSize(12),
                Arbitraries.integers().between(0, 9)
        ).as((branch, seed, scores, failure) -> {
            if (failure == 0) {
                return BranchResult.failed(branch, "down", 1);
            }
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                ids.add("c" + i);
            }
            Collections.shuffle(ids, new Random(seed));
            List<Hit> hits = new ArrayList<>();
            for (int i = 0; i < scores.size(); i++) {
                hits.add(new Hit(ids.get(i), scores.get(i)));
            }
            return BranchResult.ok(branch, hits, 1);
        });
        return one.list().ofMaxSize(3).uniqueElements(BranchResult::branch);
    }
}
