package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.fusion.BranchScore;
import io.poimen.memory.retrieval.fusion.FusedCandidate;
import io.poimen.memory.retrieval.fusion.FusionSettings;
import io.poimen.memory.retrieval.select.CacheAlignedOrder;
import io.poimen.memory.retrieval.select.ChunkMemo;
import io.poimen.memory.retrieval.select.MetadataBooster;
import io.poimen.memory.retrieval.select.SelectionItem;
import io.poimen.memory.retrieval.select.ShingleDeduplicator;
import io.poimen.memory.retrieval.select.TokenBudgetSelector;
import io.poimen.memory.vault.Chunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Query step after the result access: near-duplicates, top-k, token budget, stable order. */
public class SelectStep {
    private final ChunkRows rows;
    private final CacheAlignedOrder order = new CacheAlignedOrder();
    private final ChunkMemo<long[]> shingles = ShingleDeduplicator.memo();

    public SelectStep(ChunkRows rows) {
        this.rows = rows;
    }

    public SelectedQuery select(FusedQuery q) {
        long t0 = System.nanoTime();
        RetrievalSettings s = q.planned().settings();
        Trace trace = q.trace();
        List<FusedCandidate> pool = q.fused().subList(0, Math.min(q.fused().size(), Math.max(50, 3 * s.topK())));
        // twice top-k distinct chunks leave the budget room to back-fill; rows are read best first, a batch of
        // that size at a time, until the deduplication keeps enough: most of the pool is never read
        int wanted = 2 * s.topK();
        ShingleDeduplicator dedup = new ShingleDeduplicator(s.shingleSize(), s.jaccard(), shingles);
        Map<String, Chunk> chunks = Map.of();
        Map<String, FusedCandidate> byId = new HashMap<>();
        List<SelectionItem> items = new ArrayList<>();
        List<SelectionItem> distinct = List.of();
        for (int from = 0; from < pool.size() && distinct.size() < wanted; from += wanted) {
            List<FusedCandidate> batch = pool.subList(from, Math.min(pool.size(), from + wanted));
            ChunkRows.Read read = rows.read(batch.stream().map(FusedCandidate::chunkId).toList(), chunks);
            chunks = read.rows();
            if (read.degraded() != null) {
                trace = trace.degrade(ChunkRows.DEGRADED_KEY, read.degraded());
            }
            for (FusedCandidate c : batch) {
                SelectionItem item = CandidateItems.item(q.planned().scope(), c, chunks.get(c.chunkId()));
                if (item != null) {
                    byId.put(c.chunkId(), c);
                    items.add(item);
                }
            }
            distinct = dedup.deduplicate(items, wanted).kept();
        }
        TokenBudgetSelector.Selection selection = new TokenBudgetSelector().select(distinct, s.topK(), s.budgetTokens());
        // the boosts were applied to the TF-IDF branch's scores; here they are only reported
        List<MetadataBooster.Boost> boosts = BranchSearches.booster(s).boosts(q.planned().query(), selection.selected());
        List<QueryResponse.Result> results = new ArrayList<>(boosts.size());
        for (int i = 0; i < boosts.size(); i++) {
            SelectionItem item = selection.selected().get(i);
            results.add(result(item, chunks.get(item.chunkId()), byId.get(item.chunkId()), boosts.get(i), s.fusion()));
        }
        List<String> context = order.order(selection.selected()).stream().map(SelectionItem::chunkId).toList();
        // degraded and timings are the answer step's, from the trace the value carries
        QueryResponse response = new QueryResponse(q.planned().request().project(), q.planned().plan().strategy(),
                q.planned().plan().reason(), List.of(), Map.of(), List.copyOf(results),
                new QueryResponse.Context(context, selection.tokensUsed(), selection.budget()), Map.of());
        return new SelectedQuery(q, response, distinct, chunks, trace.timed("selection", t0));
    }

    private static QueryResponse.Result result(SelectionItem item, Chunk chunk, FusedCandidate fused,
                                               MetadataBooster.Boost boost, FusionSettings fs) {
        Map<String, QueryResponse.BranchPart> parts = new LinkedHashMap<>();
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Map.Entry<Branch, BranchScore> e : fused.components().entrySet()) {
            BranchScore b = e.getValue();
            parts.put(e.getKey().key(), new QueryResponse.BranchPart(b.raw(), b.normalized(), b.rank(), b.weight(),
                    b.contribution()));
            weights.put(e.getKey().key(), b.weight());
        }
        fused.weights().forEach(weights::putIfAbsent); // a query-adaptive fusion's weights for this query
        fs.weights().forEach((b, w) -> weights.putIfAbsent(b.key(), w));
        String reason = fused.reason() + (boost.fired().isEmpty() ? "" : "; tfidf boosts " + boost.fired());
        return new QueryResponse.Result(chunk.id(), chunk.path(), chunk.heading(), chunk.breadcrumb(), chunk.text(),
                item.score(), new QueryResponse.Breakdown(fused.fusion(), weights, parts, fused.score(),
                boost.factor(), boost.fired(), reason));
    }
}
