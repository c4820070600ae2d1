package io.poimen.memory.index.opensearch;

import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.LatencyStats;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.lucene.LexicalQueryPlan;
import io.poimen.memory.vault.Chunk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.opensearch.OpensearchComponent;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.hc.core5.http.HttpHost;
import org.opensearch.client.RestClient;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch.core.SearchRequest;
import org.opensearch.client.opensearch.core.search.HitsMetadata;
import org.opensearch.client.transport.rest_client.RestClientTransport;

/**
 * Issue 32 item 3, the lexical branch's search: the same OpenSearch search request sent by the hub's client call
 * ({@code OpenSearchClient.search}) and by camel-opensearch's {@code Search} operation (a producer on the same
 * {@link RestClient}), alternating query by query, timed per call; plus OpenSearch's own {@code took}.
 *
 * <pre>java -cp "$(scripts/test-classpath.sh)" io.poimen.memory.index.opensearch.CamelSearchBench URL DATASET DOCS ROUNDS</pre>
 */
public final class CamelSearchBench {
    private CamelSearchBench() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        BeirDataset set = BeirDataset.load(Path.of(args[1])).firstDocuments(Integer.parseInt(args[2]));
        int rounds = Integer.parseInt(args[3]);
        try (RestClient rest = RestClient.builder(HttpHost.create(url)).build();
             DefaultCamelContext camel = new DefaultCamelContext()) {
            OpenSearchClient client = new OpenSearchClient(new RestClientTransport(rest, new JacksonJsonpMapper()));
            OpenSearchLexicalIndex index = new OpenSearchLexicalIndex(client,
                    OpenSearchLexicalIndex.Options.defaults().withIndexName("camel-search-bench").withRefresh(Refresh.True));
            index.dropIndex();
            index.ensureIndex();
            List<Chunk> chunks = new ArrayList<>();
            for (BeirDataset.Doc d : set.corpus()) {
                String path = "projects/bench/" + d.id() + ".md";
                chunks.add(new Chunk(path + "#0", path, "bench", 0, d.title(), List.of(d.title()), d.text(),
                        d.text().length() / 4, null, List.of()));
            }
            index.upsert(chunks);
            OpensearchComponent component = new OpensearchComponent();
            component.setClient(rest);
            camel.addComponent("opensearch", component);
            camel.start();
            ProducerTemplate producer = camel.createProducerTemplate();
            String endpoint = "opensearch://bench?operation=Search";
            List<String> queries = new ArrayList<>(set.queries().values());
            LatencyStats viaClient = new LatencyStats();
            LatencyStats viaCamel = new LatencyStats();
            LatencyStats took = new LatencyStats();
            int k = 100;
            for (int r = 0; r < rounds; r++) {
                boolean measured = r > 0; // round 0 warms both paths up
                for (int i = 0; i < queries.size(); i++) {
                    LexicalQueryPlan plan = LexicalQueryPlan.of(queries.get(i));
                    if (plan.isEmpty()) {
                        continue;
                    }
                    // which goes first alternates, so neither always meets a cache the other warmed
                    for (int side = 0; side < 2; side++) {
                        boolean camelSide = (i + side) % 2 == 0;
                        SearchRequest.Builder request = request(index, plan, k);
                        long t0 = System.nanoTime();
                        List<Hit> hits;
                        if (camelSide) {
                            HitsMetadata<?> found = producer.requestBody(endpoint, request, HitsMetadata.class);
                            hits = found.hits().stream().map(h -> new Hit(h.id(), h.score())).toList();
                        } else {
                            var response = client.search(request.build(), Void.class);
                            hits = response.hits().hits().stream().map(h -> new Hit(h.id(), h.score())).toList();
                            if (measured) {
                                took.add(response.took());
                            }
                        }
                        double ms = (System.nanoTime() - t0) / 1e6;
                        if (measured && !hits.isEmpty()) {
                            (camelSide ? viaCamel : viaClient).add(ms);
                        }
                    }
                }
            }
            System.out.printf("%d chunks, %d queries x %d rounds, k = %d%n", chunks.size(), queries.size(),
                    rounds - 1, k);
            System.out.printf("%-34s %8s %8s %8s%n", "path", "p50", "p95", "mean ms");
            print("OpenSearchClient.search", viaClient);
            print("camel-opensearch Search", viaCamel);
            print("OpenSearch took (client side)", took);
            index.dropIndex();
        }
    }

    /** The branch's search as the index sends it when every term is held (no fuzzy clause). */
    private static SearchRequest.Builder request(OpenSearchLexicalIndex index, LexicalQueryPlan plan, int k) {
        return new SearchRequest.Builder().index(index.indexName())
                .query(q -> q.bool(b -> OpenSearchLexicalIndex.query(b, plan, Set.of(), SearchScope.all())))
                .size(k).trackScores(true)
                .sort(o -> o.score(sc -> sc.order(SortOrder.Desc)))
                .sort(o -> o.field(f -> f.field("chunk_id").order(SortOrder.Asc)))
                .source(src -> src.fetch(false));
    }

    private static void print(String name, LatencyStats s) {
        System.out.printf("%-34s %8.2f %8.2f %8.2f%n", name, s.percentile(50), s.percentile(95), s.mean());
    }
}
