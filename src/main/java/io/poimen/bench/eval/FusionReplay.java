package io.poimen.bench.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.index.Hit;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.retrieval.fusion.FusionMethod;
import io.poimen.memory.retrieval.fusion.FusionSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scores fusion methods offline on the branch lists {@code bench beir --dump-branches} wrote: the same lists the
 * route's fusion saw, fused again with any method or parameters in milliseconds, ranked by document as
 * {@link BeirBenchmark} does (near-duplicate removal, which happens after fusion, is left out).
 */
public final class FusionReplay {

    /**
     * One judged query: its text, what each branch answered, and the judgments; {@code shares}: the term share of
     * each chunk in its lists as the hub read it when the dump was written, else null (an older dump).
     */
    public record Query(String id, String text, List<BranchResult> branches, Map<String, Integer> qrels,
                        Map<String, Double> shares) {
        public Query(String id, String text, List<BranchResult> branches, Map<String, Integer> qrels) {
            this(id, text, branches, qrels, null);
        }

        /** A query whose text is not known (the script rule reads it as no letters: every model reads it). */
        public Query(String id, List<BranchResult> branches, Map<String, Integer> qrels) {
            this(id, "", branches, qrels);
        }
    }

    /**
     * A dumped set; {@code shares}: its corpus's term shares for the gate's coverage keep, or null (a dump holds no
     * text: the keep is left out).
     */
    public record Dump(String name, Map<String, String> docByChunk, List<Query> queries, CorpusTermShares shares) {
        public Dump(String name, Map<String, String> docByChunk, List<Query> queries) {
            this(name, docByChunk, queries, null);
        }

        /** The set with its corpus's term shares. */
        public Dump withShares(CorpusTermShares corpusShares) {
            return new Dump(name, docByChunk, queries, corpusShares);
        }

        /**
         * The term shares of query {@code q}'s text: the dumped ones, the hub's own, for the chunks of its lists; a
         * chunk not in them (one a noise variant put in a list) from the corpus when given, else 0; without dumped
         * shares (a dump made before dumps held them) all from the corpus; with neither, null: the keep is left out.
         */
        public java.util.function.ToDoubleFunction<String> sharesFor(Query q) {
            Map<String, Double> dumped = q.shares();
            java.util.function.ToDoubleFunction<String> corpus = shares == null ? null
                    : shares.forQuery(q.text(), docByChunk);
            if (dumped == null) {
                return corpus;
            }
            return chunk -> {
                Double share = dumped.get(chunk);
                return share != null ? share : corpus == null ? 0 : corpus.applyAsDouble(chunk);
            };
        }
    }

    private FusionReplay() {
    }

    public static Dump load(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        Map<String, String> docs = new HashMap<>();
        root.path("doc_by_chunk").fields().forEachRemaining(e -> docs.put(e.getKey(), e.getValue().asText()));
        List<Query> queries = new ArrayList<>();
        root.path("queries").fields().forEachRemaining(q -> {
            Map<String, Integer> qrels = new HashMap<>();
            root.path("qrels").path(q.getKey()).fields()
                    .forEachRemaining(e -> qrels.put(e.getKey(), e.getValue().asInt()));
            List<BranchResult> branches = new ArrayList<>();
            q.getValue().path("branches").fields().forEachRemaining(b -> {
                Branch branch = Branch.ofKey(b.getKey());
                if (b.getValue().isObject()) {
                    branches.add(BranchResult.failed(branch, b.getValue().path("error").asText(), 0));
                } else {
                    List<Hit> hits = new ArrayList<>();
                    b.getValue().forEach(h -> hits.add(new Hit(h.get(0).asText(), h.get(1).asDouble())));
                    branches.add(BranchResult.ok(branch, hits, 0));
                }
            });
            Map<String, Double> shares = null;
            if (q.getValue().path("shares").isObject()) {
                Map<String, Double> read = new HashMap<>();
                q.getValue().path("shares").fields().forEachRemaining(e -> read.put(e.getKey(), e.getValue().asDouble()));
                shares = read;
            }
            if (!qrels.isEmpty()) {
                queries.add(new Query(q.getKey(), q.getValue().path("text").asText(""), branches, qrels, shares));
            }
        });
        return new Dump(root.path("dataset").asText(file.getFileName().toString()), docs, queries);
    }

    /**
     * The same set as a hub asked for {@code depth} candidates per branch would have answered it: every list cut to
     * its first {@code depth} hits (exact for BM25 and TF-IDF; the dense branch's approximate top, near enough).
     *
     * @throws IllegalArgumentException when {@code depth} is below 1
     */
    public static Dump firstHits(Dump dump, int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be at least 1, got " + depth);
        }
        List<Query> out = new ArrayList<>();
        for (Query q : dump.queries()) {
            List<BranchResult> cut = q.branches().stream().map(r -> !r.answered() || r.hits().size() <= depth ? r
                    : BranchResult.ok(r.branch(), List.copyOf(r.hits().subList(0, depth)), r.tookMs())).toList();
            out.add(new Query(q.id(), q.text(), cut, q.qrels(), q.shares()));
        }
        return new Dump(dump.name(), dump.docByChunk(), out, dump.shares());
    }

    /**
     * The same set with a semantic branch that returns noise: each query's semantic list is replaced by as many
     * chunks drawn at random from the whole corpus (seeded by the query's place, so runs repeat), scored with
     * that query's own cosines, best first. A model that does not understand the vault returns chunks unrelated
     * to the question, and a random draw shares with the lexical lists what chance gives for this corpus size
     * and list length. Made from any set, so that a fit can learn how hard to cut such a branch without seeing
     * a set where it happens. Named {@code <set>~noise}.
     */
    public static Dump withNoiseSemantic(Dump dump) {
        return withNoiseSemantic(dump, 1);
    }

    /**
     * {@link #withNoiseSemantic(Dump)} drawn {@code draws} times: every query once per draw (ids {@code q#d} from
     * the second draw on), each draw with its own seeds, the first draw the one-draw variant. Whether a gate
     * catches a random list on a small corpus depends on what that draw happens to share with the lexical lists
     * (one query of 11 on business-reports), so a fit reads the mean over several draws instead of one.
     */
    public static Dump withNoiseSemantic(Dump dump, int draws) {
        if (draws < 1) {
            throw new IllegalArgumentException("noise draws must be ≥ 1, got " + draws);
        }
        List<String> corpus = new ArrayList<>(new java.util.TreeSet<>(dump.docByChunk().keySet()));
        int n = dump.queries().size();
        List<Query> out = new ArrayList<>(n * draws);
        for (int d = 0; d < draws; d++) {
            for (int i = 0; i < n; i++) {
                Query q = dump.queries().get(i);
                int seed = d * n + i;
                List<BranchResult> branches = new ArrayList<>();
                for (BranchResult r : q.branches()) {
                    branches.add(r.branch() == Branch.SEMANTIC && r.answered() ? noise(r, corpus, seed) : r);
                }
                out.add(new Query(d == 0 ? q.id() : q.id() + "#" + d, q.text(), branches, q.qrels(), q.shares()));
            }
        }
        return new Dump(dump.name() + "~noise", dump.docByChunk(), out, dump.shares());
    }

    private static BranchResult noise(BranchResult semantic, List<String> corpus, int seed) {
        List<String> ids = new ArrayList<>(corpus);
        java.util.Collections.shuffle(ids, new java.util.Random(seed));
        List<Double> scores = semantic.hits().stream().map(Hit::score)
                .sorted(java.util.Comparator.reverseOrder()).toList();
        List<Hit> hits = new ArrayList<>();
        for (int k = 0; k < Math.min(scores.size(), ids.size()); k++) {
            hits.add(new Hit(ids.get(k), scores.get(k)));
        }
        return BranchResult.ok(Branch.SEMANTIC, hits, 0);
    }

    /**
     * The same set with lexical branches that agree with each other but miss: each query's BM25 and TF-IDF lists
     * are both replaced by the lists those branches returned for another query of the set, the next one (in
     * order, wrapping) that has no relevant document in common with this one and whose borrowed lists contain
     * none of this query's relevant documents; the semantic list is kept. That is the case the agreement gate
     * can get wrong: a right dense list next to two lexical lists that agree as lexical lists do (their own
     * overlap, score shapes and lengths, not a random draw, which two lexical lists would share whole) but
     * answer something else. Its reference is the semantic branch. A query for which no other query qualifies
     * is left out. Named {@code <set>~lexnoise}.
     */
    public static Dump withLexicalNoise(Dump dump) {
        List<Query> qs = dump.queries();
        List<Query> out = new ArrayList<>(qs.size());
        for (int i = 0; i < qs.size(); i++) {
            Set<String> relevant = relevant(qs.get(i));
            for (int k = 1; k < qs.size(); k++) {
                Query other = qs.get((i + k) % qs.size());
                if (java.util.Collections.disjoint(relevant, relevant(other))
                        && !mentions(dump, other, relevant)) {
                    out.add(new Query(qs.get(i).id(), qs.get(i).text(), borrowLexical(qs.get(i), other),
                            qs.get(i).qrels(), qs.get(i).shares()));
                    break;
                }
            }
        }
        return new Dump(dump.name() + "~lexnoise", dump.docByChunk(), out, dump.shares());
    }

    private static Set<String> relevant(Query q) {
        Set<String> docs = new java.util.HashSet<>();
        q.qrels().forEach((doc, grade) -> {
            if (grade > 0) {
                docs.add(doc);
            }
        });
        return docs;
    }

    private static boolean mentions(Dump dump, Query q, Set<String> docs) {
        return q.branches().stream().filter(r -> isLexical(r.branch())).flatMap(r -> r.hits().stream())
                .anyMatch(h -> docs.contains(dump.docByChunk().getOrDefault(h.chunkId(), h.chunkId())));
    }

    private static List<BranchResult> borrowLexical(Query q, Query from) {
        List<BranchResult> branches = new ArrayList<>();
        for (BranchResult r : q.branches()) {
            if (!isLexical(r.branch())) {
                branches.add(r);
            }
        }
        from.branches().stream().filter(r -> isLexical(r.branch())).forEach(branches::add);
        return branches;
    }

    private static boolean isLexical(Branch b) {
        return b == Branch.LEXICAL || b == Branch.TFIDF;
    }

    /** Mean nDCG@10 of {@code method} over the dump's queries. */
    public static double ndcg10(Dump dump, FusionMethod method, FusionSettings settings) {
        return ndcg10(dump, q -> method, settings);
    }

    /** Mean nDCG@10 of a fusion chosen per query (e.g. by whether the embedding model reads its script). */
    public static double ndcg10(Dump dump, java.util.function.Function<Query, FusionMethod> method,
                                FusionSettings settings) {
        double sum = 0;
        for (Query q : dump.queries()) {
            sum += ndcg10(dump, q, fused(q, method.apply(q), settings));
        }
        return sum / Math.max(1, dump.queries().size());
    }

    /** Mean nDCG@10 of one branch's own order. */
    public static double ndcg10(Dump dump, String branch) {
        double sum = 0;
        for (Query q : dump.queries()) {
            sum += ndcg10(dump, q, branchOrder(q, branch));
        }
        return sum / Math.max(1, dump.queries().size());
    }

    /**
     * Mean over the queries of the best nDCG@10 that any of the named branches' own orders or any of the methods
     * reaches on that query: the most a per-query choice between those rankings could give (an upper bound read
     * with the judgments, never a method). A target above it cannot be reached by weighting these lists per query.
     */
    public static double perQueryBest(Dump dump, List<String> branches, List<FusionMethod> methods,
                                      FusionSettings settings) {
        double sum = 0;
        for (Query q : dump.queries()) {
            double best = 0;
            for (String b : branches) {
                best = Math.max(best, ndcg10(dump, q, branchOrder(q, b)));
            }
            for (FusionMethod m : methods) {
                best = Math.max(best, ndcg10(dump, q, fused(q, m, settings)));
            }
            sum += best;
        }
        return sum / Math.max(1, dump.queries().size());
    }

    private static List<String> fused(Query q, FusionMethod method, FusionSettings settings) {
        return method.fuse(q.branches(), settings).stream().map(FusedCandidate::chunkId).toList();
    }

    private static List<String> branchOrder(Query q, String branch) {
        return q.branches().stream().filter(b -> b.branch().key().equals(branch))
                .flatMap(b -> b.hits().stream()).map(Hit::chunkId).toList();
    }

    private static double ndcg10(Dump dump, Query q, List<String> chunks) {
        return RankingMetrics.ndcg(documents(dump, chunks), q.qrels(), 10);
    }

    private static List<String> documents(Dump dump, List<String> chunks) {
        Set<String> docs = new LinkedHashSet<>();
        chunks.forEach(c -> docs.add(dump.docByChunk().getOrDefault(c, c)));
        return new ArrayList<>(docs);
    }
}
