package io.poimen.memory.index.tfidf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.Terms;
import io.poimen.memory.vault.VaultPaths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The postings-based index against a brute-force model that scores every chunk from scratch. */
class TfIdfIndexPropertiesTest {
    static final List<String> WORDS = List.of("pod", "crash", "kubectl", "helm", "rust", "borrow", "owner",
            "docker", "image", "log", "error", "cluster");
    static final List<String> NOTES = List.of("projects/a/1.md", "projects/a/2.md", "projects/b/1.md",
            "projects/b/2.md", "shared/concepts/1.md", "shared/skills/SKILL-x/SKILL.md", "top.md");

    static final double EPS = 1e-5;

    record Op(String note, List<String> chunkTexts, String heading, boolean remove) {
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<String> text = Arbitraries.of(WORDS).list().ofMinSize(1).ofMaxSize(8).map(l -> String.join(" ", l));
        return Combinators.combine(Arbitraries.of(NOTES), text.list().ofMinSize(1).ofMaxSize(3), Arbitraries.of(WORDS),
                Arbitraries.integers().between(0, 5)).as((n, t, h, r) -> new Op(n, t, h, r == 0)).list().ofMaxSize(15);
    }

    @Provide
    Arbitrary<List<String>> query() {
        return Arbitraries.of(WORDS).list().ofMinSize(1).ofMaxSize(4);
    }

    @Provide
    Arbitrary<String> project() {
        return Arbitraries.of("a", "b", "c").injectNull(0.3);
    }

    @Property(tries = 200)
    void searchEqualsBruteForce(@ForAll("ops") List<Op> ops, @ForAll("query") List<String> words,
                                @ForAll("project") String project, @ForAll boolean scoped) {
        TfIdfIndex index = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        Map<String, List<Chunk>> model = new LinkedHashMap<>();
        for (Op op : ops) {
            if (op.remove()) {
                index.removePath(op.note());
                model.remove(op.note());
            } else {
                List<Chunk> chunks = new ArrayList<>();
                for (int i = 0; i < op.chunkTexts().size(); i++) {
                    chunks.add(TestChunks.chunk(op.note(), i, op.heading(), op.chunkTexts().get(i), op.heading()));
                }
                index.replacePath(op.note(), chunks);
                model.put(op.note(), chunks);
            }
        }
        List<Chunk> all = model.values().stream().flatMap(List::stream).toList();
        Set<String> scope = scoped ? Set.of(NOTES.get(0), NOTES.get(4), NOTES.get(6)) : null;
        List<String> query = words.stream().map(Terms::term).toList();

        List<Hit> actual = index.search(query, project, scope, 100);
        List<Hit> expected = bruteForce(all, query, project, scope);
        assertThat(index.size()).isEqualTo(all.size());
        assertRankedByTheTieRule(actual, expected);
    }

    /**
     * The index's list against the model's: the same chunks with the same scores (to {@link #EPS}), ordered by the
     * documented rule (score descending, then chunk id ascending) on the index's own scores. The index keeps its term
     * weights as floats, so two chunks whose exact scores are equal can come out a few float ulps apart in either
     * direction: the model's order may differ from the index's only between chunks whose model scores are within
     * {@link #EPS} of each other; any other inversion fails.
     */
    static void assertRankedByTheTieRule(List<Hit> actual, List<Hit> expected) {
        Map<String, Double> model = new HashMap<>();
        expected.forEach(h -> model.put(h.chunkId(), h.score()));
        assertThat(actual).extracting(Hit::chunkId).containsExactlyInAnyOrderElementsOf(model.keySet());
        for (int i = 0; i < actual.size(); i++) {
            Hit hit = actual.get(i);
            assertThat(hit.score()).as(hit.chunkId()).isCloseTo(model.get(hit.chunkId()), within(EPS));
            if (i > 0) {
                Hit before = actual.get(i - 1);
                assertThat(Hit.BEST_FIRST.compare(before, hit)).as("%s before %s", before, hit).isNegative();
                assertThat(model.get(before.chunkId())).as("%s before %s", before, hit)
                        .isGreaterThanOrEqualTo(model.get(hit.chunkId()) - EPS);
            }
        }
    }

    static Map<String, Integer> docTerms(Chunk c) {
        Map<String, Integer> tf = new HashMap<>();
        Terms.analyze(c.text()).forEach(t -> tf.merge(t, 1, Integer::sum));
        metaTerms(c).forEach(m -> tf.putIfAbsent(m, 1));
        return tf;
    }

    static Set<String> metaTerms(Chunk c) {
        Set<String> meta = new HashSet<>(Terms.analyze(c.heading()));
        c.metadata().keyTerms().forEach(k -> meta.addAll(Terms.analyze(k)));
        return meta;
    }

    static boolean inProjectStats(Chunk c, String project) {
        return project.equals(c.project()) || VaultPaths.isShared(c.path());
    }

    static double idf(List<Chunk> all, String term, String project) {
        boolean known = project != null && all.stream().anyMatch(c -> project.equals(c.project()));
        if (known) {
            List<Chunk> docs = all.stream().filter(c -> inProjectStats(c, project)).toList();
            long df = docs.stream().filter(c -> docTerms(c).containsKey(term)).count();
            if (df > 0) {
                return Math.log((double) docs.size() / df);
            }
        }
        long df = all.stream().filter(c -> docTerms(c).containsKey(term)).count();
        return df == 0 ? 0 : Math.log((double) all.size() / df);
    }

    static List<Hit> bruteForce(List<Chunk> all, List<String> query, String project, Set<String> scope) {
        Map<String, Integer> qtf = new HashMap<>();
        query.forEach(t -> qtf.merge(t, 1, Integer::sum));
        List<Hit> hits = new ArrayList<>();
        for (Chunk c : all) {
            Map<String, Integer> tf = docTerms(c);
            if ((scope != null && !scope.contains(c.path())) || qtf.keySet().stream().noneMatch(tf::containsKey)) {
                continue;
            }
            double norm = Math.sqrt(tf.values().stream().mapToDouble(f -> Math.pow(1 + Math.log(f), 2)).sum());
            double score = 0;
            for (Map.Entry<String, Integer> q : qtf.entrySet()) {
                double idf = idf(all, q.getKey(), project);
                if (tf.containsKey(q.getKey())) {
                    score += (1 + Math.log(q.getValue())) * (1 + Math.log(tf.get(q.getKey()))) * idf * idf / norm;
                }
                if (metaTerms(c).contains(q.getKey())) {
                    score += idf * TfIdfIndex.DEFAULT_METADATA_WEIGHT;
                }
            }
            hits.add(new Hit(c.id(), score));
        }
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(Hit::chunkId));
        return hits;
    }
}
