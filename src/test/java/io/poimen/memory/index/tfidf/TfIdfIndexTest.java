package io.poimen.memory.index.tfidf;

import static io.poimen.memory.index.tfidf.TestChunks.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.poimen.memory.index.Hit;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.Terms;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TfIdfIndexTest {
    static final String KUBECTL = "projects/poimen/tools/kubectl.md";
    static final String OWNERSHIP = "projects/poimen/memories/ownership.md";
    static final String RUST = "projects/rust-guide/memories/ownership.md";
    static final String SKILL = "shared/skills/SKILL-kubernetes-debugging/SKILL.md";

    final TfIdfIndex index = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);

    static String t(String word) {
        return Terms.term(word);
    }

    /** The notes' example. Natural log: the notes' "log10 < 0.3" bound becomes 0.3·ln 10 ≈ 0.69. */
    @Test
    void globalIdfOfTheNotesExample() {
        index.addAll(List.of(chunk("a.md", 0, "A", "kubernetes pod error CrashLoopBackOff"),
                chunk("b.md", 0, "B", "kubernetes pod debugging guide"),
                chunk("c.md", 0, "C", "docker container error")));
        assertThat(index.idf(t("kubernetes"))).isCloseTo(Math.log(3.0 / 2), within(1e-12));
        assertThat(index.idf(t("kubernetes"))).isLessThan(0.3 * Math.log(10));
        assertThat(index.idf(t("error"))).isEqualTo(index.idf(t("kubernetes")));
        assertThat(index.idf(t("CrashLoopBackOff"))).isCloseTo(Math.log(3), within(1e-12)).isGreaterThan(0.9);
        for (String word : "kubernetes pod error debugging guide docker container".split(" ")) {
            assertThat(index.idf(t(word))).isLessThanOrEqualTo(index.idf(t("CrashLoopBackOff")));
        }
        assertThat(index.idf("never-seen")).isZero();
    }

    List<Chunk> vault() {
        return List.of(
                chunk(KUBECTL, 0, "Debugging pods", "Use kubectl describe pod and kubectl logs when a kubernetes pod "
                        + "keeps crashing in CrashLoopBackOff; debugging starts with the pod events."),
                chunk(OWNERSHIP, 0, "Ownership", "Ownership and borrowing: each value has one owner, and debugging "
                        + "borrow checker errors means reading the lifetimes."),
                chunk(RUST, 0, "Ownership", "Rust ownership moves values; borrowing lends them without moving."),
                chunk(RUST, 1, "Borrowing", "Mutable borrowing is exclusive; shared borrowing is not."),
                chunk(SKILL, 0, "Kubernetes debugging", "Check pod status, events and container logs in kubernetes."));
    }

    @Test
    void projectScopedQueryRanksTheKubectlChunkAboveOwnership() {
        index.addAll(vault());
        List<Hit> hits = index.search("kubernetes pod crash debugging", "poimen", Set.of(KUBECTL, OWNERSHIP, SKILL), 10);
        assertThat(hits).extracting(Hit::chunkId).startsWith(Chunk.idOf(KUBECTL, 0)).contains(Chunk.idOf(OWNERSHIP, 0));
        double kubectl = score(hits, Chunk.idOf(KUBECTL, 0));
        assertThat(kubectl).isGreaterThan(score(hits, Chunk.idOf(OWNERSHIP, 0)));
    }

    static double score(List<Hit> hits, String id) {
        return hits.stream().filter(h -> h.chunkId().equals(id)).findFirst().orElseThrow().score();
    }

    @Test
    void scoreFollowsTheCosineFormula() {
        index.addAll(List.of(chunk("a.md", 0, "A", "pod pod crash"), chunk("b.md", 0, "B", "docker")));
        double idf = Math.log(2);
        double norm = Math.sqrt(Math.pow(1 + Math.log(2), 2) + 1);
        List<Hit> hits = index.search(List.of(t("pod")), null, null, 5);
        assertThat(hits).hasSize(1);
        assertThat(hits.get(0).score()).isCloseTo((1 + Math.log(2)) * idf * idf / norm, within(1e-6));
    }

    @Test
    void metadataKeyTermBoostsByIdfTimesWeight() {
        Chunk plain = chunk("a.md", 0, "Notes", "the pod restarts with CrashLoopBackOff");
        Chunk keyed = chunk("b.md", 0, "Notes", "the pod restarts with CrashLoopBackOff", "CrashLoopBackOff");
        index.addAll(List.of(plain, keyed, chunk("c.md", 0, "Other", "docker image")));
        List<Hit> hits = index.search("CrashLoopBackOff", null, null, 5);
        assertThat(hits).extracting(Hit::chunkId).containsExactly(keyed.id(), plain.id());
        double boost = index.idf(t("CrashLoopBackOff")) * TfIdfIndex.DEFAULT_METADATA_WEIGHT;
        assertThat(hits.get(0).score() - hits.get(1).score()).isCloseTo(boost, within(1e-6));

        TfIdfIndex noBoost = new TfIdfIndex(0);
        noBoost.addAll(List.of(keyed, plain));
        assertThat(noBoost.search("CrashLoopBackOff", null, null, 5)).extracting(Hit::chunkId)
                .as("equal scores tie on chunk id").containsExactly(plain.id(), keyed.id());
    }

    /** A link's reference names another section (vault/LinkText): the branch does not count its words. */
    @Test
    void aWordOnlyInALinksReferenceIsNotTheChunksTerm() {
        Chunk related = chunk("a.md", 3, "Related", "for crashes at start see [[pod-crashes#CrashLoopBackOff]]");
        Chunk aliased = chunk("b.md", 0, "Notes", "read [[kubectl#^logs-previous|the previous logs]]");
        index.addAll(List.of(related, aliased, chunk("c.md", 0, "Other", "the pod restarts with CrashLoopBackOff")));

        assertThat(index.search("CrashLoopBackOff", null, null, 5)).extracting(Hit::chunkId).containsExactly("c.md#0");
        assertThat(index.search("crashes", null, null, 5)).extracting(Hit::chunkId).containsExactly(related.id());
        assertThat(index.search("previous logs", null, null, 5)).extracting(Hit::chunkId).containsExactly(aliased.id());
        assertThat(index.search("kubectl", null, null, 5)).isEmpty();
    }

    @Test
    void headingTermsCountAsMetadata() {
        Chunk headed = chunk("a.md", 0, "Helm upgrades", "roll back with care");
        index.addAll(List.of(headed, chunk("b.md", 0, "Other", "docker image")));
        List<Hit> hits = index.search("helm", null, null, 5);
        assertThat(hits).extracting(Hit::chunkId).containsExactly(headed.id());
        assertThat(index.documentFrequency(t("helm"))).isEqualTo(1);
        assertThat(hits.get(0).score()).isGreaterThan(index.idf(t("helm")) * TfIdfIndex.DEFAULT_METADATA_WEIGHT);
    }

    @Test
    void removePathDropsEveryChunkAndUpdatesStatistics() {
        index.addAll(vault());
        String borrow = t("borrowing");
        assertThat(index.documentFrequency(borrow)).isEqualTo(3);
        double before = index.idf(borrow);
        index.removePath(RUST);
        assertThat(index.size()).isEqualTo(3);
        assertThat(index.documentFrequency(borrow)).isEqualTo(1);
        assertThat(index.idf(borrow)).isCloseTo(Math.log(3.0 / 1), within(1e-12)).isNotEqualTo(before);
        assertThat(index.search("borrowing ownership", null, null, 10)).extracting(Hit::chunkId)
                .containsExactly(Chunk.idOf(OWNERSHIP, 0));
        index.removePath("no/such/note.md");
        assertThat(index.size()).isEqualTo(3);
    }

    @Test
    void replacePathAndSameIdReplaceInsteadOfDuplicating() {
        index.addAll(vault());
        index.add(chunk(KUBECTL, 0, "Helm", "helm rollback"));
        assertThat(index.size()).isEqualTo(5);
        assertThat(index.search("kubectl", null, null, 5)).isEmpty();
        index.replacePath(RUST, List.of(chunk(RUST, 0, "Traits", "traits and generics")));
        assertThat(index.size()).isEqualTo(4);
        assertThat(index.documentFrequency(t("borrowing"))).isEqualTo(1);
        assertThatThrownBy(() -> index.replacePath(RUST, List.of(chunk(KUBECTL, 0, "x", "y"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(KUBECTL);
        assertThat(index.size()).as("a rejected replace loses nothing").isEqualTo(4);
    }

    @Test
    void scopeFilterNeverReturnsChunksOutsideIt() {
        index.addAll(vault());
        Set<String> scope = Set.of(OWNERSHIP, SKILL);
        List<Hit> hits = index.search("kubernetes pod ownership borrowing debugging", "poimen", scope, 10);
        assertThat(hits).isNotEmpty().allMatch(h -> scope.contains(h.chunkId().substring(0, h.chunkId().indexOf('#'))));
        assertThat(index.search("kubernetes pod ownership borrowing debugging", "poimen", null, 10)).hasSize(5);
    }

    /** The second query with the same scope set tests slot bits instead of paths: same answer, and a write resets them. */
    @Test
    void aRepeatedScopeAnswersAsTheFirstTimeAndFollowsWrites() {
        index.addAll(vault());
        Set<String> scope = new java.util.HashSet<>(Set.of(OWNERSHIP, SKILL, RUST));
        String query = "kubernetes pod ownership borrowing debugging";
        List<Hit> first = index.search(query, "poimen", scope, 10);
        assertThat(index.search(query, "poimen", scope, 10)).isEqualTo(first)
                .isEqualTo(index.search(query, "poimen", scope, 10));
        assertThat(first).extracting(Hit::chunkId).contains(Chunk.idOf(RUST, 0));

        index.removePath(RUST);
        index.add(chunk(KUBECTL, 1, "Pods", "kubernetes pod debugging with kubectl"));
        assertThat(index.search(query, "poimen", scope, 10)).extracting(Hit::chunkId)
                .doesNotContain(Chunk.idOf(RUST, 0), Chunk.idOf(KUBECTL, 1));
        index.add(chunk(RUST, 0, "Ownership", "ownership and borrowing in rust"));
        index.search(query, "poimen", scope, 10);
        assertThat(index.search(query, "poimen", scope, 10)).extracting(Hit::chunkId).contains(Chunk.idOf(RUST, 0));
    }

    @Test
    void projectIdfCountsProjectAndSharedChunksAndDiffersFromGlobal() {
        index.addAll(vault());
        String kube = t("kubernetes");
        // global: 5 chunks, 2 hold it; poimen: 2 own + 1 shared, 2 hold it; rust-guide: 2 own + 1 shared, 1 holds it
        assertThat(index.idf(kube)).isCloseTo(Math.log(5.0 / 2), within(1e-12));
        assertThat(index.idf(kube, "poimen")).isCloseTo(Math.log(3.0 / 2), within(1e-12));
        assertThat(index.idf(kube, "rust-guide")).isCloseTo(Math.log(3.0 / 1), within(1e-12));
        String kubectl = t("kubectl");
        assertThat(index.idf(kubectl, "rust-guide")).as("unseen in project → global")
                .isEqualTo(index.idf(kubectl)).isCloseTo(Math.log(5), within(1e-12));
        assertThat(index.idf(kube, "unknown-project")).isEqualTo(index.idf(kube));

        List<Hit> global = index.search("kubernetes pod", null, null, 5);
        List<Hit> poimen = index.search("kubernetes pod", "poimen", null, 5);
        assertThat(score(poimen, Chunk.idOf(SKILL, 0))).isNotEqualTo(score(global, Chunk.idOf(SKILL, 0)));
    }

    @Test
    void edgeCasesAnswerEmptyOrFailClearly() {
        index.addAll(vault());
        assertThat(index.search("", null, null, 5)).isEmpty();
        assertThat(index.search("the and of", null, null, 5)).as("stop words only").isEmpty();
        assertThat(index.search("pod", null, null, 0)).isEmpty();
        assertThat(index.search("pod kubernetes debugging", null, null, 1)).hasSize(1);
        assertThatThrownBy(() -> index.search("pod", null, null, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TfIdfIndex(-1)).isInstanceOf(IllegalArgumentException.class);
        Chunk noPath = new Chunk("x#0", null, null, 0, "h", List.of(), "t", 1, null, List.of());
        assertThatThrownBy(() -> index.add(noPath)).isInstanceOf(IllegalArgumentException.class);
        assertThat(index.size()).isEqualTo(5);
    }

    @Test
    void chunksTheCallerMayNotReadLeaveTheIdfAsIfTheyWereNotStored() {
        List<Chunk> visible = List.of(chunk("projects/p/a.md", 0, "A", "pod crash kubectl logs"),
                chunk("projects/p/b.md", 0, "B", "pod restart"), chunk("shared/c.md", 0, "C", "kubectl crash"),
                chunk("projects/q/d.md", 0, "D", "pod pod pod"));
        List<Chunk> hidden = List.of(chunk("projects/p/secret/x.md", 0, "X", "pod crash zebracorn"),
                chunk("shared/secret/y.md", 0, "Y", "kubectl crash pod"));
        TfIdfIndex without = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        without.addAll(visible);
        index.addAll(visible);
        index.addAll(hidden);
        java.util.function.Predicate<String> readable = path -> !path.contains("/secret/");
        java.util.Set<String> scope = java.util.Set.of("projects/p/a.md", "projects/p/b.md", "shared/c.md");
        List<String> query = List.of("pod", "crash", "kubectl");

        List<Hit> a = index.search(query, "p", scope, readable, 10);
        assertThat(a).isNotEmpty().isEqualTo(without.search(query, "p", scope, readable, 10))
                .isEqualTo(without.search(query, "p", scope, 10));
        // without the predicate the hidden chunks do move the scores: that is what the predicate removes
        assertThat(index.search(query, "p", scope, 10)).isNotEqualTo(a);
    }

    /** Each chunk's share of the query's terms, weighted by the project IDF the caller's TF-IDF branch uses. */
    @Test
    void aChunksTermShareIsTheIdfOfTheQueryTermsItHoldsOverTheIdfOfAll() {
        List<Chunk> visible = List.of(chunk("projects/p/a.md", 0, "A", "pod crash kubectl logs"),
                chunk("projects/p/b.md", 0, "B", "pod restart"), chunk("shared/c.md", 0, "C", "kubectl crash"),
                chunk("projects/p/e.md", 0, "E", "release notes"));
        index.addAll(visible);
        List<String> query = List.of(t("pod"), t("crash"), t("zebracorn"), t("pod"));
        var shares = index.termShares(query, "p", null);
        // project p: 3 own chunks + 1 shared; pod in 2, crash in 2, zebracorn nowhere (idf 0)
        double pod = Math.log(4.0 / 2);
        double crash = Math.log(4.0 / 2);
        assertThat(shares.applyAsDouble(Chunk.idOf("projects/p/a.md", 0))).isCloseTo(1.0, within(1e-12));
        assertThat(shares.applyAsDouble(Chunk.idOf("projects/p/b.md", 0))).isCloseTo(pod / (pod + crash),
                within(1e-12));
        assertThat(shares.applyAsDouble(Chunk.idOf("projects/p/e.md", 0))).isZero();
        assertThat(shares.applyAsDouble("projects/p/unknown.md#0")).isZero();
        assertThat(index.termShares(List.of(t("zebracorn")), "p", null).applyAsDouble(Chunk.idOf("projects/p/a.md", 0)))
                .as("no known query term").isZero();

        // a caller who may not read a chunk gets the shares as if it were not stored
        TfIdfIndex with = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        with.addAll(visible);
        with.add(chunk("projects/p/secret/x.md", 0, "X", "crash crash"));
        java.util.function.Predicate<String> readable = path -> !path.contains("/secret/");
        String b = Chunk.idOf("projects/p/b.md", 0);
        assertThat(with.termShares(query, "p", readable).applyAsDouble(b))
                .isCloseTo(shares.applyAsDouble(b), within(1e-12));
        assertThat(with.termShares(query, "p", null).applyAsDouble(b)).isNotCloseTo(shares.applyAsDouble(b),
                within(1e-6));
    }

    @Test
    void theHiddenChunksOfARestrictedCallerAreCollectedOncePerIndexStateAndDenials() {
        index.addAll(List.of(chunk("projects/p/a.md", 0, "A", "pod crash kubectl logs"),
                chunk("projects/p/b.md", 0, "B", "pod restart"),
                chunk("projects/p/secret/x.md", 0, "X", "pod crash zebracorn"),
                chunk("shared/skills/SKILL-open.md", 0, "S", "kubectl pod"),
                chunk("shared/skills/SKILL-closed.md", 0, "T", "crash crash pod")));
        java.util.Set<String> scope = java.util.Set.of("projects/p/a.md", "projects/p/b.md");
        List<String> query = List.of("pod", "crash", "kubectl");
        // two skill files in one folder are two units: denying one must not hide (or reveal) the other
        java.util.function.Predicate<String> readable = path -> !path.contains("/secret/")
                && !path.equals("shared/skills/SKILL-closed.md");
        long[] before = index.hiddenCacheStats();

        List<Hit> first = index.search(query, "p", scope, readable, 10);
        List<Hit> second = index.search(query, "p", scope, path -> readable.test(path), 10);
        assertThat(second).isEqualTo(first);
        long[] after = index.hiddenCacheStats();
        assertThat(after[1] - before[1]).as("built once").isEqualTo(1);
        assertThat(after[0] - before[0]).as("then served").isEqualTo(1);

        TfIdfIndex reference = new TfIdfIndex(TfIdfIndex.DEFAULT_METADATA_WEIGHT);
        reference.addAll(List.of(chunk("projects/p/a.md", 0, "A", "pod crash kubectl logs"),
                chunk("projects/p/b.md", 0, "B", "pod restart"),
                chunk("shared/skills/SKILL-open.md", 0, "S", "kubectl pod")));
        assertThat(first).isEqualTo(reference.search(query, "p", scope, 10));

        // a write drops the cache: the new chunk counts at once
        index.add(chunk("projects/p/c.md", 0, "C", "crash"));
        reference.add(chunk("projects/p/c.md", 0, "C", "crash"));
        assertThat(index.search(query, "p", scope, readable, 10)).isEqualTo(reference.search(query, "p", scope, 10));
        assertThat(index.hiddenCacheStats()[1] - after[1]).isEqualTo(1);
        // other denials (a policy change): another entry
        index.search(query, "p", scope, path -> !path.contains("/secret/"), 10);
        assertThat(index.hiddenCacheStats()[1] - after[1]).isEqualTo(2);
    }

    @Test
    void theHiddenChunkCacheHoldsAtMost256SetsAndCountsHitsInItsMeters() {
        int folders = HiddenChunks.MAX_ENTRIES + 44;
        List<Chunk> chunks = new java.util.ArrayList<>();
        for (int f = 0; f < folders; f++) {
            chunks.add(chunk("projects/p/f" + f + "/a.md", 0, "A", "pod crash"));
        }
        index.addAll(chunks);
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        index.bindTo(registry);
        java.util.function.Predicate<String> first = path -> !path.startsWith("projects/p/f0/");
        index.search(List.of("pod"), "p", null, first, 10);
        index.search(List.of("pod"), "p", null, first, 10);
        assertThat(index.hiddenCacheStats()[0]).isEqualTo(1);
        for (int f = 1; f < folders; f++) {
            String denied = "projects/p/f" + f + "/";
            index.search(List.of("pod"), "p", null, path -> !path.startsWith(denied), 10);
            assertThat(index.hiddenCacheStats()[2]).isLessThanOrEqualTo(HiddenChunks.MAX_ENTRIES);
        }
        long[] stats = index.hiddenCacheStats();
        assertThat(stats[1]).as("built").isEqualTo(folders);
        assertThat(stats[2]).as("kept").isEqualTo(HiddenChunks.MAX_ENTRIES);
        // each set holds one slot but weighs a 256th of the slot bound, so the entry bound holds
        assertThat(stats[3]).isEqualTo(HiddenChunks.MAX_ENTRIES * (HiddenChunks.MAX_SLOTS / HiddenChunks.MAX_ENTRIES));
        assertThat(registry.get("cache.gets").tag("cache", HiddenChunks.NAME).tag("result", "miss")
                .functionCounter().count()).isEqualTo(folders);
        assertThat(registry.get("poimen.tfidf.hidden.chunks.cache.hit.ratio").gauge().value())
                .isEqualTo(1.0 / (folders + 1));
    }
}
