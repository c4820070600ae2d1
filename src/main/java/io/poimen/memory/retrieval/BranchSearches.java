package io.poimen.memory.retrieval;

import io.poimen.memory.ops.Availability;
import io.poimen.memory.retrieval.branch.BranchResult;
import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.VectorModelException;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.retrieval.query.QueryIntent;
import io.poimen.memory.retrieval.select.HitCounts;
import io.poimen.memory.retrieval.select.MetadataBooster;
import io.poimen.memory.retrieval.select.RecencyAndHits;
import io.poimen.memory.retrieval.select.SelectionItem;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The three retrieval branches the query route multicasts to. Each answers a {@link BranchResult} with up to
 * {@code candidates_per_branch} hits inside the wiki-graph scope, or null when the route plan skips it.
 */
public class BranchSearches {
    public static final String BRANCH = "poimenBranch";
    static final String STARTED = "poimenBranchStarted";
    public static final String VECTOR_HEADER = "CamelLangChain4jEmbeddingsVector";
    private static final Logger log = LoggerFactory.getLogger(BranchSearches.class);

    private final TfIdfIndex tfidf;
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final Availability embedding;
    private final String queryPrefix;
    private final HitCounts hits;
    private final Clock clock;

    public BranchSearches(TfIdfIndex tfidf, VectorIndex vectors, LexicalIndex lexical,
                          Availability embedding) {
        this(tfidf, vectors, lexical, embedding, "");
    }

    /** @param queryPrefix what the embedding model wants in front of a query (BGE's instruction), or "" */
    public BranchSearches(TfIdfIndex tfidf, VectorIndex vectors, LexicalIndex lexical,
                          Availability embedding, String queryPrefix) {
        this(tfidf, vectors, lexical, embedding, queryPrefix, HitCounts.NONE, Clock.systemUTC());
    }

    /**
     * @param hits  selection counts per project and chunk, for the TF-IDF branch's hit factor
     * @param clock now, for its recency factor
     */
    public BranchSearches(TfIdfIndex tfidf, VectorIndex vectors, LexicalIndex lexical, Availability embedding,
                          String queryPrefix, HitCounts hits, Clock clock) {
        this.hits = hits;
        this.clock = clock;
        this.queryPrefix = queryPrefix;
        this.tfidf = tfidf;
        this.vectors = vectors;
        this.lexical = lexical;
        this.embedding = embedding;
    }

    public boolean runs(@ExchangeProperty(PlannedQuery.PROPERTY) PlannedQuery q,
                        @ExchangeProperty(BRANCH) String branch) {
        return q.runs(Branch.ofKey(branch));
    }

    /**
     * TF-IDF scores with the chunk-metadata boosts of the design notes (key term ×1.5, category ×1.3 by default):
     * they multiply this branch's score, as the notes' score_chunk_with_metadata does. Applied to the fused
     * score instead, they lowered nDCG@10 on both benchmark sets for every method. Then the recency and hit
     * factors ({@link RecencyAndHits}, off by default): they reorder the branch's own candidates, which are all
     * notes the caller may read, each by its own note time and its own selection count in the query's project.
     */
    public BranchResult tfidf(@ExchangeProperty(PlannedQuery.PROPERTY) PlannedQuery q) {
        long t0 = System.nanoTime();
        List<Hit> hits = tfidf.search(q.query().terms(), q.request().project(), q.scope().paths(),
                q.caller().readable(), q.settings().candidatesPerBranch());
        return BranchResult.ok(Branch.TFIDF, boosted(q, hits), millisSince(t0));
    }

    private List<Hit> boosted(PlannedQuery q, List<Hit> hits) {
        if (hits.isEmpty()) {
            return hits;
        }
        var booster = booster(q.settings()).forQuery(q.query());
        RecencyAndHits usage = q.settings().recencyAndHits();
        boolean used = usage.recencyOn() || usage.hitsOn();
        long now = used ? clock.millis() : 0;
        List<Hit> out = new ArrayList<>(hits.size());
        for (Hit h : hits) {
            // the index keeps the key terms, category and note time: no chunk row is read here
            TfIdfIndex.ChunkMetadataView m = tfidf.metadata(h.chunkId());
            double factor = m == null ? 1.0 : booster.apply(new SelectionItem(h.chunkId(), m.path(), 0,
                    h.score(), 0, "", m.keyTerms(), m.category())).factor();
            if (used && m != null) {
                factor *= usage.factor(m.noteTimeMillis(),
                        usage.hitsOn() ? this.hits.count(q.request().project(), h.chunkId()) : 0, now);
            }
            out.add(new Hit(h.chunkId(), h.score() * factor));
        }
        out.sort(Hit.BEST_FIRST);
        return out;
    }

    static MetadataBooster booster(RetrievalSettings s) {
        return new MetadataBooster(s.keyTermBoost(), s.categoryBoost(), new QueryIntent());
    }

    public BranchResult lexical(@ExchangeProperty(PlannedQuery.PROPERTY) PlannedQuery q) {
        long t0 = System.nanoTime();
        List<Hit> hits = lexical.search(lexicalText(q), q.scope(), q.settings().candidatesPerBranch());
        return BranchResult.ok(Branch.LEXICAL, hits, millisSince(t0));
    }

    /** The text the embedding endpoint turns into the query vector. */
    public String semanticText(@ExchangeProperty(PlannedQuery.PROPERTY) PlannedQuery q, Exchange exchange) {
        exchange.setProperty(STARTED, System.nanoTime()); // the branch time includes embedding the query
        return queryPrefix + (q.query().text().isBlank() ? q.request().query() : q.query().text());
    }

    public BranchResult semantic(@ExchangeProperty(PlannedQuery.PROPERTY) PlannedQuery q,
                                 @Header(VECTOR_HEADER) float[] vector, @ExchangeProperty(STARTED) Long started) {
        long t0 = started != null ? started : System.nanoTime();
        double embedded = millisSince(t0);
        embedding.succeeded();
        List<Hit> hits = vectors.search(vector, q.scope(), q.settings().candidatesPerBranch());
        return BranchResult.ok(Branch.SEMANTIC, hits, millisSince(t0)).withStep("embedding", embedded);
    }

    /** Called by the branch-errors route configuration: the branch failed, the query goes on without it. */
    public BranchResult failed(Exchange exchange) {
        Throwable e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        Branch branch = Branch.ofKey(exchange.getProperty(BRANCH, String.class));
        PlannedQuery q = exchange.getProperty(PlannedQuery.PROPERTY, PlannedQuery.class);
        long started = q != null ? q.plannedNanos() : System.nanoTime();
        if (e instanceof VectorModelException) { // the store is being re-embedded: not a fault of the model
            log.debug("{} branch degraded: {}", branch.key(), e.getMessage());
            return BranchResult.failed(branch, e.getMessage(), millisSince(started));
        }
        String reason = e == null ? "failed" : e.getClass().getSimpleName() + ": " + e.getMessage();
        if (branch == Branch.SEMANTIC) {
            embedding.failed(reason);
        }
        log.warn("{} branch failed: {}", branch.key(), reason);
        return BranchResult.failed(branch, reason, millisSince(started));
    }

    /** Tags are filters, not words; mentions are searched as words. Tag-only queries search the tags. */
    static String lexicalText(PlannedQuery q) {
        StringBuilder text = new StringBuilder(q.query().text());
        q.query().mentions().forEach(m -> text.append(' ').append(m));
        if (text.toString().isBlank()) {
            q.query().tags().forEach(t -> text.append(' ').append(t));
        }
        return text.toString().trim();
    }

    static double millisSince(long nanos) {
        return Trace.millisSince(nanos);
    }
}
