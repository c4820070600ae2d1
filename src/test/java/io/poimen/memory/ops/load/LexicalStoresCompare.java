package io.poimen.memory.ops.load;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.LuceneLexicalIndex;
import io.poimen.memory.index.opensearch.OpenSearchLexicalIndex;
import io.poimen.memory.index.opensearch.OpenSearchRestClients;
import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.BeirVault;
import io.poimen.bench.eval.RankingMetrics;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.vault.NoteParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.opensearch.client.RestClient;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.transport.rest_client.RestClientTransport;
import org.springframework.util.FileSystemUtils;

/**
 * Do the two BM25 stores rank alike? Every BEIR set given is written as the hub's vault, parsed into chunks by
 * the hub's own parser, and those chunks indexed in the embedded Lucene index and in OpenSearch (the prod
 * profile's lexical store); every judged query is then asked of both (top 100, the lexical branch's request
 * without a scope: a one-project vault) and the top 10s compared. Prints per set: queries whose top-10 ids are
 * identical (in order), whose top-100 ids are, the largest relative score difference of a chunk both top 100s
 * hold, both stores' nDCG@10, and the mean time per search of each (on a loaded machine a figure to compare, not
 * a latency). {@code poimen.lexical.fuzzy} is given as {@code --no-fuzzy}.
 *
 * <pre>
 * java -cp "target/test-classes:target/classes:$(cat target/cp.txt)" io.poimen.memory.ops.load.OpenSearchNode /tmp/os-url &amp;
 * java -cp "target/test-classes:target/classes:$(cat target/cp.txt)" io.poimen.memory.ops.load.LexicalStoresCompare \
 *   $(cat /tmp/os-url) ../shared/bench/msmarco-5k ../shared/bench/jsquad-ja ...
 * </pre>
 */
public final class LexicalStoresCompare {
    private LexicalStoresCompare() {
    }

    public static void main(String[] args) throws Exception {
        boolean fuzzy = !List.of(args).contains("--no-fuzzy");
        List<String> rest = Stream.of(args).filter(a -> !a.equals("--no-fuzzy")).toList();
        RestClient rest0 = OpenSearchRestClients.create(rest.get(0), null, null, null);
        OpenSearchClient client = new OpenSearchClient(new RestClientTransport(rest0, new JacksonJsonpMapper()));
        System.out.printf("%-18s %7s %14s %14s %10s %9s %9s %9s %9s%n", "set", "queries", "top-10 equal",
                "top-100 equal", "score diff", "nDCG Luc", "nDCG OS", "ms Luc", "ms OS");
        for (String dir : rest.subList(1, rest.size())) {
            compare(client, BeirDataset.load(Path.of(dir)), fuzzy);
        }
        rest0.close();
    }

    private static void compare(OpenSearchClient client, BeirDataset set, boolean fuzzy) throws Exception {
        Path vault = Files.createTempDirectory("poimen-compare-");
        try (LuceneLexicalIndex lucene = new LuceneLexicalIndex(new org.apache.lucene.store.ByteBuffersDirectory(),
                fuzzy)) {
            Map<String, String> idByPath = BeirVault.write(set, vault);
            List<Chunk> chunks = new ArrayList<>();
            NoteParser parser = NoteParser.withDefaults();
            try (Stream<Path> files = Files.walk(vault)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                    chunks.addAll(parser.parse(vault.relativize(f).toString(), Files.readAllBytes(f)).chunks());
                }
            }
            OpenSearchLexicalIndex os = new OpenSearchLexicalIndex(client, OpenSearchLexicalIndex.Options.defaults()
                    .withIndexName("compare-" + set.name().toLowerCase()).withRefresh(Refresh.WaitFor), fuzzy);
            os.dropIndex();
            os.ensureIndex();
            os.upsert(chunks);
            lucene.upsert(chunks);
            int top10 = 0;
            int top100 = 0;
            double ndcgLucene = 0;
            double ndcgOs = 0;
            long nanosLucene = 0;
            long nanosOs = 0;
            double scoreDiff = 0;
            for (Map.Entry<String, String> q : set.judgedQueries().entrySet()) {
                long t0 = System.nanoTime();
                List<Hit> a = lucene.search(q.getValue(), SearchScope.all(), 100);
                long t1 = System.nanoTime();
                List<Hit> b = os.search(q.getValue(), SearchScope.all(), 100);
                nanosLucene += t1 - t0;
                nanosOs += System.nanoTime() - t1;
                top10 += ids(a, 10).equals(ids(b, 10)) ? 1 : 0;
                top100 += ids(a, 100).equals(ids(b, 100)) ? 1 : 0;
                scoreDiff = Math.max(scoreDiff, scoreDifference(a, b));
                ndcgLucene += RankingMetrics.ndcg(docs(a, idByPath), set.qrels().get(q.getKey()), 10);
                ndcgOs += RankingMetrics.ndcg(docs(b, idByPath), set.qrels().get(q.getKey()), 10);
            }
            int n = set.judgedQueries().size();
            System.out.printf("%-18s %7d %8d (%3.0f%%) %8d (%3.0f%%) %10.1e %9.4f %9.4f %9.2f %9.2f%n", set.name(), n,
                    top10, 100.0 * top10 / n, top100, 100.0 * top100 / n, scoreDiff, ndcgLucene / n, ndcgOs / n,
                    nanosLucene / 1e6 / n, nanosOs / 1e6 / n);
            os.dropIndex();
        } finally {
            FileSystemUtils.deleteRecursively(vault);
        }
    }

    private static List<String> ids(List<Hit> hits, int k) {
        return hits.stream().limit(k).map(Hit::chunkId).toList();
    }

    /** The largest relative difference between the two scores of a chunk both lists hold. */
    private static double scoreDifference(List<Hit> a, List<Hit> b) {
        Map<String, Double> scores = new java.util.HashMap<>();
        a.forEach(h -> scores.put(h.chunkId(), h.score()));
        double max = 0;
        for (Hit h : b) {
            Double other = scores.get(h.chunkId());
            if (other != null) {
                max = Math.max(max, Math.abs(other - h.score()) / Math.max(1e-9, Math.abs(other)));
            }
        }
        return max;
    }

    private static List<String> docs(List<Hit> hits, Map<String, String> idByPath) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        hits.forEach(h -> out.add(idByPath.getOrDefault(SearchScope.pathOfChunk(h.chunkId()), h.chunkId())));
        return new ArrayList<>(out);
    }
}
