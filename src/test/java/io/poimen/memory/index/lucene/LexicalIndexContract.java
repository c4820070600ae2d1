package io.poimen.memory.index.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.ChunkMetadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Behaviour every {@link LexicalIndex} must show, run against each implementation by a subclass.
 * Each test gets a fresh, empty index.
 */
public abstract class LexicalIndexContract {

    protected LexicalIndex index;

    /** A fresh, empty index whose writes are visible to the next search. */
    protected abstract LexicalIndex newIndex();

    /** A fresh, empty index without the typo clause ({@code poimen.lexical.fuzzy: false}). */
    protected abstract LexicalIndex newIndexWithoutFuzzy();

    /** A fresh, empty index whose fields join with {@code poimen.lexical.field-tie-breaker} set to {@code tie}. */
    protected abstract LexicalIndex newIndexWithFieldTieBreaker(double tie);

    /** Releases the index made by {@link #newIndex()}. */
    protected abstract void dispose(LexicalIndex index);

    @BeforeEach
    void createIndex() {
        index = newIndex();
    }

    @AfterEach
    void disposeIndex() {
        dispose(index);
    }

    public static Chunk chunk(String path, int ordinal, String heading, List<String> breadcrumb, String text,
                              List<String> tags) {
        String project = path.startsWith("projects/") ? path.split("/")[1] : null;
        return new Chunk(Chunk.idOf(path, ordinal), path, project, ordinal, heading, breadcrumb, text,
                text.split("\\s+").length, new ChunkMetadata(heading, text, List.of(), ChunkMetadata.CONCEPT), tags);
    }

    private static Chunk chunk(String path, int ordinal, String text) {
        return chunk(path, ordinal, "Notes", List.of("Notes"), text, List.of());
    }

    private static List<String> ids(List<Hit> hits) {
        return hits.stream().map(Hit::chunkId).toList();
    }

    private static final List<Chunk> PODS = List.of(
            chunk("projects/k8s/pods.md", 0, "Pod states", List.of("Pods", "Pod states"),
                    "A pod in CrashLoopBackOff restarts again and again; read the previous container logs.", List.of()),
            chunk("projects/k8s/jobs.md", 0, "Job states", List.of("Jobs", "Job states"),
                    "A job whose pod is in CrashLoop keeps a BackOff timer before the next retry.", List.of()),
            chunk("projects/k8s/operator.md", 0, "Operator states", List.of("Operator", "States"),
                    "Our operator reports CrashLoopBackOn when the reconcile loop cannot back on.", List.of()),
            chunk("shared/concepts/restarts.md", 0, "Restarts", List.of("Restarts"),
                    "Restart policies decide when kubelet restarts a failed container.", List.of()));

    /**
     * A link's reference is a name field, not content (vault/LinkText): the short see-also chunk that holds the word
     * only in {@code [[pod-crashes#CrashLoopBackOff]]} ranks below the longer section whose own text explains it, and
     * is still found by it.
     */
    @Test
    void aWordOnlyInALinksReferenceRanksBelowTheTextThatSaysIt() {
        index.upsert(List.of(
                chunk("projects/k8s/network.md", 4, "Related", List.of("Network", "Related"),
                        "For crashes at start, see [[pod-crashes#CrashLoopBackOff]].", List.of()),
                chunk("projects/k8s/pod-crashes.md", 1, "Restarts", List.of("Pod crashes", "Restarts"),
                        "CrashLoopBackOff means the container started, exited, and the kubelet waits before the next "
                                + "restart; the back-off doubles up to five minutes and the cause is in the previous "
                                + "container's logs and its last state.", List.of())));

        assertThat(ids(index.search("CrashLoopBackOff", SearchScope.all(), 10)))
                .containsExactly("projects/k8s/pod-crashes.md#1", "projects/k8s/network.md#4");
    }

    @Test
    void exactKeywordRanksItsChunkFirst() {
        index.upsert(PODS);

        List<Hit> hits = index.search("CrashLoopBackOff", SearchScope.all(), 10);

        assertThat(ids(hits)).first().isEqualTo("projects/k8s/pods.md#0");
        assertThat(ids(hits)).doesNotContain("shared/concepts/restarts.md#0");
    }

    @Test
    void exactMatchOutranksItsTypoNeighbour() {
        index.upsert(PODS);

        List<Hit> hits = index.search("CrashLoopBackOff", SearchScope.all(), 10);

        // "CrashLoopBackOn" is two edits away: a fuzzy clause may find it, but never above the exact match
        assertThat(ids(hits)).first().isEqualTo("projects/k8s/pods.md#0");
        assertThat(hits.subList(1, hits.size())).allSatisfy(h -> assertThat(h.score()).isLessThan(hits.get(0).score()));
    }

    @Test
    void typoStillFindsTheChunk() {
        index.upsert(PODS);

        List<Hit> hits = index.search("CrashLopBackOff", SearchScope.all(), 10);

        assertThat(ids(hits)).first().isEqualTo("projects/k8s/pods.md#0");
    }

    @Test
    void aWordOnlyChunksOutOfScopeOrDeletedHoldLeavesTypoToleranceOnInScope() {
        Chunk readable = chunk("projects/p/readable.md", 0, "The glimmerbrook runbook drains the node first.");
        index.upsert(List.of(readable, chunk("projects/p/other.md", 0, "Nothing of the sort here.")));
        SearchScope scope = SearchScope.of(Set.of(readable.path(), "projects/p/other.md"));
        List<String> before = ids(index.search("glimmerbrock", scope, 10));
        assertThat(before).containsExactly(readable.id());

        // the exact word, held by a chunk out of scope (a note the caller may not read) and by a deleted one
        index.upsert(List.of(chunk("projects/p/secret/hidden.md", 0, "The glimmerbrock plan."),
                chunk("projects/q/gone.md", 0, "The glimmerbrock draft.")));
        index.deleteByPath("projects/q/gone.md");
        assertThat(ids(index.search("glimmerbrock", scope, 10))).isEqualTo(before);
        assertThat(ids(index.search("glimmerbrock", SearchScope.all(), 10)))
                .contains("projects/p/secret/hidden.md#0").doesNotContain("projects/q/gone.md#0");
    }

    @Test
    void onlyATermNoTextFieldHoldsIsFuzzed() {
        index.upsert(List.of(chunk("a.md", 0, "Pods", List.of("Pods"), "A pod in CrashLoopBackOff restarts.", List.of()),
                chunk("b.md", 0, "Operator", List.of("Operator"), "The operator reports CrashLoopBackOn.", List.of())));

        // held as written: exact matches only, the neighbour two edits away is not expanded to
        assertThat(ids(index.search("CrashLoopBackOff", SearchScope.all(), 10))).containsExactly("a.md#0");
        assertThat(ids(index.search("operator CrashLoopBackOff", SearchScope.all(), 10)))
                .containsExactlyInAnyOrder("a.md#0", "b.md#0");
        // a typo the index does not hold finds both neighbours
        assertThat(ids(index.search("CrashLoopBackOf", SearchScope.all(), 10)))
                .containsExactlyInAnyOrder("a.md#0", "b.md#0");
    }

    @Test
    void aWordHeldInScopeByAChunkWithoutTheAskedTagsIsNotFuzzed() {
        index.upsert(List.of(
                chunk("a.md", 0, "A", List.of("A"), "Drain the glimmerbrook node first.", List.of("ops")),
                chunk("b.md", 0, "B", List.of("B"), "The glimmerbrock runbook.", List.of("dev"))));

        // "glimmerbrook" is held (a.md, in scope): no typo clause, so the dev chunk's neighbour is not found
        assertThat(index.search("glimmerbrook", new SearchScope(null, List.of("dev")), 10)).isEmpty();
        assertThat(ids(index.search("glimmerbrook", new SearchScope(null, List.of("ops")), 10)))
                .containsExactly("a.md#0");
        // a word no chunk holds is fuzzed, and the tags still filter the hits
        assertThat(ids(index.search("glimmerbruuk", new SearchScope(null, List.of("dev")), 10)))
                .containsExactly("b.md#0");
    }

    @Test
    void aWordHeldInScopeOnlyBelowTheTopHitsIsNotFuzzed() {
        index.upsert(List.of(
                chunk("a.md", 0, "glimmerbrook glimmerbrook runbook"),
                chunk("b.md", 0, "The saltmarsh survey of the northern estuary lists tides, birds, reeds, sluices,"
                        + " dykes, ditches, pumps, gauges, moorings and the ferry timetable for every season."),
                chunk("c.md", 0, "saltmarsk glimmerbrook")));

        // "saltmarsh" is held (b.md) though not by the top hit: no typo clause lifts c.md's "saltmarsk"
        assertThat(ids(index.search("glimmerbrook saltmarsh", SearchScope.all(), 1))).containsExactly("a.md#0");
        // as a typo it would be fuzzed, and then c.md comes first
        assertThat(ids(index.search("glimmerbrook saltmarsj", SearchScope.all(), 1))).containsExactly("c.md#0");
    }

    @Test
    void withoutFuzzyATypoFindsNothing() {
        LexicalIndex exact = newIndexWithoutFuzzy();
        try {
            exact.upsert(List.of(chunk("a.md", 0, "Pods", List.of("Pods"), "A pod in CrashLoopBackOff restarts.",
                    List.of())));

            assertThat(exact.search("CrashLoopBackOf", SearchScope.all(), 10)).isEmpty();
            assertThat(ids(exact.search("CrashLoopBackOff", SearchScope.all(), 10))).containsExactly("a.md#0");
        } finally {
            dispose(exact);
        }
    }

    /**
     * {@link #SPLIT_QUERY}'s words split between a chunk's heading ("Etcd") and its text ("snapshot"): ops/disks.md
     * says "snapshot" three times and nothing of etcd; ops/dns.md neither word.
     */
    public static final List<Chunk> SPLIT_WORDS = List.of(
            chunk("ops/etcd.md", 0, "Etcd", List.of("Ops", "Etcd"),
                    "Take a snapshot before every cluster upgrade.", List.of()),
            chunk("ops/disks.md", 0, "Disks", List.of("Ops", "Disks"),
                    "A snapshot of a disk is a snapshot of its blocks; keep one snapshot per day.", List.of()),
            chunk("ops/dns.md", 0, "DNS", List.of("Ops", "DNS"),
                    "Check the resolver configuration before every cluster upgrade.", List.of()));
    public static final String SPLIT_QUERY = "etcd snapshot";

    /**
     * The query's words split between a chunk's heading ("Etcd") and its text ("snapshot"): by default (0) the chunk
     * counts its best field alone and the chunk that says "snapshot" three times wins; with a tie-breaker the heading
     * adds its share and the chunk about etcd snapshots comes first, in both stores alike.
     */
    @Test
    void theFieldTieBreakerLetsAChunkGatherTheQuerysWordsFromItsHeadingAndItsText() {
        index.upsert(SPLIT_WORDS);
        List<Hit> best = index.search(SPLIT_QUERY, SearchScope.all(), 10);
        assertThat(ids(best)).containsExactly("ops/disks.md#0", "ops/etcd.md#0");
        assertThat(best.get(0).score()).as("not a tie broken by chunk id").isGreaterThan(best.get(1).score());

        LexicalIndex gathering = newIndexWithFieldTieBreaker(0.5);
        try {
            gathering.upsert(SPLIT_WORDS);
            assertThat(ids(gathering.search(SPLIT_QUERY, SearchScope.all(), 10)))
                    .containsExactly("ops/etcd.md#0", "ops/disks.md#0");
            // a word in one field only scores as before: nothing to gather
            assertThat(gathering.search("resolver", SearchScope.all(), 10).get(0).score())
                    .isCloseTo(index.search("resolver", SearchScope.all(), 10).get(0).score(),
                            Percentage.withPercentage(0.01));
        } finally {
            dispose(gathering);
        }
    }

    @Test
    void equalScoresTieByChunkId() {
        // the same text in every chunk, written in an order unlike the ids' (BM25 gives all the same score)
        List<Chunk> chunks = new ArrayList<>();
        for (int i : new int[] {7, 3, 9, 1, 5, 8, 2, 6, 4, 0}) {
            chunks.add(chunk("ties/n" + i + ".md", 0, "Notes", List.of("Notes"), "Drain the node first.", List.of()));
        }
        index.upsert(chunks.subList(0, 5));
        index.upsert(chunks.subList(5, 10));

        List<Hit> hits = index.search("drain node", SearchScope.all(), 4);

        assertThat(ids(hits)).containsExactly("ties/n0.md#0", "ties/n1.md#0", "ties/n2.md#0", "ties/n3.md#0");
        assertThat(hits).allSatisfy(h -> assertThat(h.score()).isEqualTo(hits.get(0).score()));
    }

    private static final List<Chunk> JAPANESE = List.of(
            chunk("ja/kyoto.md", 0, "京都", List.of("旅行", "京都"),
                    "京都は千年以上にわたって日本の都であり、多くの寺や神社が残っている。", List.of()),
            chunk("ja/tokyo.md", 0, "東京", List.of("旅行", "東京"),
                    "東京の人口は約千四百万人で、東京都の都心には高層ビルが多い。", List.of()),
            chunk("ja/cat.md", 0, "動物", List.of("動物"),
                    "猫は古くから人と暮らしてきた動物で、ネズミを捕まえる。", List.of()),
            chunk("ja/proverb.md", 0, "ことわざ", List.of("ことわざ"),
                    "人の口に戸は立てられない。人は口をつつしむべきだ。", List.of()),
            chunk("ja/backup.md", 0, "運用", List.of("運用"),
                    "データベースのバックアップは毎晩取得し、復元手順を月に一度確認する。", List.of()));

    @Test
    void japaneseIsSearchableByItsWords() {
        index.upsert(JAPANESE);

        // a two-character word: the pair ranks first, above text holding its characters apart (人 and 口, twice
        // each, in ja/proverb.md)
        assertThat(ids(index.search("人口", SearchScope.all(), 10))).first().isEqualTo("ja/tokyo.md#0");
        assertThat(ids(index.search("神社", SearchScope.all(), 10))).containsExactly("ja/kyoto.md#0");
        // a one-character word
        assertThat(ids(index.search("猫", SearchScope.all(), 10))).containsExactly("ja/cat.md#0");
        // a katakana word inside a run, and a question written as one would ask it
        assertThat(ids(index.search("バックアップ", SearchScope.all(), 10))).first().isEqualTo("ja/backup.md#0");
        assertThat(ids(index.search("データベースの復元手順はどこですか", SearchScope.all(), 10))).first()
                .isEqualTo("ja/backup.md#0");
        assertThat(ids(index.search("日本の古い都はどこですか", SearchScope.all(), 10))).first()
                .isEqualTo("ja/kyoto.md#0");
    }

    @Test
    void chineseIsSearchableByItsWords() {
        index.upsert(List.of(
                chunk("zh/db.md", 0, "数据库", List.of("运维"), "每天晚上备份数据库，每月检查一次恢复流程。", List.of()),
                chunk("zh/net.md", 0, "网络", List.of("运维"), "如果服务无法访问，先检查防火墙和域名解析。", List.of()),
                chunk("zh/team.md", 0, "团队", List.of("团队"), "新同事第一周要熟悉代码库和发布流程。", List.of()),
                chunk("zh/words.md", 0, "汉字", List.of("汉字"), "头发和布，流水和工程，出发前买布，水流过程序。", List.of())));

        assertThat(ids(index.search("数据库备份", SearchScope.all(), 10))).first().isEqualTo("zh/db.md#0");
        assertThat(ids(index.search("防火墙", SearchScope.all(), 10))).first().isEqualTo("zh/net.md#0");
        // its characters twice each, but apart, in zh/words.md
        assertThat(ids(index.search("发布流程是什么", SearchScope.all(), 10))).first().isEqualTo("zh/team.md#0");
    }

    @Test
    void contentMatchBeatsBreadcrumbOnlyMatch() {
        index.upsert(List.of(
                chunk("ops/backup.md", 0, "Backup", List.of("Ops", "Backup"),
                        "Take an etcd snapshot before every cluster upgrade.", List.of()),
                chunk("ops/etcd.md", 0, "Upgrade", List.of("Ops", "etcd"),
                        "Take a database snapshot before every cluster upgrade.", List.of()),
                chunk("ops/dns.md", 0, "DNS", List.of("Ops", "DNS"),
                        "Check the resolver configuration before every cluster upgrade.", List.of())));

        List<Hit> hits = index.search("etcd", SearchScope.all(), 10);

        assertThat(ids(hits)).containsExactly("ops/backup.md#0", "ops/etcd.md#0");
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    }

    @Test
    void scopeFilterNeverReturnsOutOfScopeChunks() {
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            chunks.add(chunk("projects/p" + (i % 4) + "/note-" + i + ".md", 0,
                    "Use kubectl describe to inspect resource " + i + " events."));
        }
        index.upsert(chunks);
        Random random = new Random(7);
        for (int round = 0; round < 10; round++) {
            Set<String> scope = new HashSet<>();
            for (Chunk c : chunks) {
                if (random.nextInt(4) == 0) {
                    scope.add(c.path());
                }
            }
            scope.add("projects/none/missing.md");

            List<Hit> hits = index.search("kubectl describe", SearchScope.of(scope), 100);

            Set<String> expected = new HashSet<>();
            chunks.stream().filter(c -> scope.contains(c.path())).forEach(c -> expected.add(c.id()));
            assertThat(ids(hits)).containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(index.search("kubectl", SearchScope.of(Set.of()), 10)).isEmpty();
        assertThat(index.search("kubectl", SearchScope.all(), 100)).hasSize(40);
    }

    @Test
    void everyRequestedTagMustMatch() {
        index.upsert(List.of(
                chunk("a.md", 0, "A", List.of("A"), "Rotate the signing keys.", List.of("security", "ops")),
                chunk("b.md", 0, "B", List.of("B"), "Rotate the log files.", List.of("ops")),
                chunk("c.md", 0, "C", List.of("C"), "Rotate the TLS certificates.", List.of("security"))));

        assertThat(ids(index.search("rotate", new SearchScope(null, List.of("ops", "security")), 10)))
                .containsExactly("a.md#0");
        assertThat(ids(index.search("rotate", new SearchScope(null, List.of("ops")), 10)))
                .containsExactlyInAnyOrder("a.md#0", "b.md#0");
        assertThat(ids(index.search("rotate", new SearchScope(Set.of("b.md", "c.md"), List.of("security")), 10)))
                .containsExactly("c.md#0");
    }

    @Test
    void deleteByPathRemovesEveryChunkOfThePath() {
        index.upsert(List.of(
                chunk("notes/helm.md", 0, "Install the chart with helm."),
                chunk("notes/helm.md", 1, "Upgrade the release with helm."),
                chunk("notes/helm.md", 2, "Roll back a helm release."),
                chunk("notes/helmfile.md", 0, "Helmfile drives helm for many releases.")));
        assertThat(index.count()).isEqualTo(4);

        index.deleteByPath("notes/helm.md");

        assertThat(index.count()).isEqualTo(1);
        assertThat(ids(index.search("helm release", SearchScope.all(), 10))).containsExactly("notes/helmfile.md#0");
    }

    @Test
    void deleteByPathsRemovesTheChunksOfEveryGivenPathAtOnce() {
        index.upsert(List.of(
                chunk("notes/helm.md", 0, "Install the chart with helm."),
                chunk("notes/helm.md", 1, "Upgrade the release with helm."),
                chunk("notes/helm-old.md", 0, "Old helm release notes."),
                chunk("notes/helmfile.md", 0, "Helmfile drives helm for many releases.")));

        index.deleteByPaths(List.of("notes/helm.md", "notes/helm-old.md", "notes/never-indexed.md"));
        index.deleteByPaths(List.of());

        assertThat(index.count()).isEqualTo(1);
        assertThat(ids(index.search("helm release", SearchScope.all(), 10))).containsExactly("notes/helmfile.md#0");
    }

    @Test
    void upsertReplacesTheChunkWithTheSameId() {
        index.upsert(List.of(chunk("notes/db.md", 0, "Vacuum the postgres tables weekly."),
                chunk("notes/db.md", 1, "Check replication lag.")));

        index.upsert(List.of(chunk("notes/db.md", 0, "Reindex the postgres tables monthly.")));

        assertThat(index.count()).isEqualTo(2);
        assertThat(index.search("vacuum", SearchScope.all(), 10)).isEmpty();
        assertThat(ids(index.search("reindex", SearchScope.all(), 10))).containsExactly("notes/db.md#0");
    }

    @Test
    void pathWordsAreSearchable() {
        index.upsert(List.of(chunk("projects/billing/invoices.md", 0, "Totals are computed nightly."),
                chunk("projects/search/ranking.md", 0, "Totals are recomputed on demand.")));

        assertThat(ids(index.search("billing totals", SearchScope.all(), 10))).first()
                .isEqualTo("projects/billing/invoices.md#0");
    }

    @Test
    void kLimitsTheHitsAndBlankQueriesFindNothing() {
        index.upsert(PODS);

        assertThat(index.search("restarts pod container", SearchScope.all(), 2)).hasSize(2);
        assertThat(index.search("   ", SearchScope.all(), 10)).isEmpty();
        assertThat(index.search("the", SearchScope.all(), 10)).isEmpty();
    }

    @Test
    void longQueriesOverSimilarTermsStayWithinClauseLimits() {
        // 26*26 words one or two edits apart ("termaa", "termab", ...), so every fuzzy term expands fully
        List<String> words = new ArrayList<>();
        for (char a = 'a'; a <= 'z'; a++) {
            for (char b = 'a'; b <= 'z'; b++) {
                words.add("term" + a + b + "x");
            }
        }
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < words.size(); i += 4) {
            chunks.add(chunk("long/n" + i + ".md", 0, String.join(" ", words.subList(i, i + 4))));
        }
        index.upsert(chunks);

        String query = String.join(" ", words.subList(0, 300));
        List<Hit> hits = index.search(query, SearchScope.all(), 10);

        assertThat(hits).hasSize(10);
        assertThat(ids(hits)).contains("long/n0.md#0");
    }
}
