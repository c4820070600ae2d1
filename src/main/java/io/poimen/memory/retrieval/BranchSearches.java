package io.poimen.memory.retrieval;

import io.poimen.memory.index.Hit;
import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.SearchScope;
import io.poimen.memory.index.VectorIndex;
import io.poimen.memory.index.tfidf.TfIdfIndex;
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
    private final EmbeddingAvailability embedding;

    public BranchSearches(TfIdfIndex tfidf, VectorIndex vectors, LexicalIndex lexical,
                          EmbeddingAvailability embedding) {
        this.tfidf = tfidf;
        this.vectors = vectors;
        this.lexical = lexical;
        this.embedding = embedding;
    }

    public boolean runs(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx,
                        @ExchangeProperty(BRANCH) String branch) {
        return ctx.runs(Branch.ofKey(branch));
    }

    public BranchResult tfidf(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx) {
        long t0 = System.nanoTime();
        List<String> terms = ctx.query.terms();
        List<Hit> hits = tfidf.search(terms, ctx.request.project(), ctx.scope.paths(),
                ctx.settings.candidatesPerBranch());
        return BranchResult.ok(Branch.TFIDF, hits, millisSince(t0));
    }

    public BranchResult lexical(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx) {
        long t0 = System.nanoTime();
        List<Hit> hits = lexical.search(lexicalText(ctx), ctx.scope, ctx.settings.candidatesPerBranch());
        return BranchResult.ok(Branch.LEXICAL, hits, millisSince(t0));
    }

    /** The text the embedding endpoint turns into the query vector. */
    public String semanticText(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        exchange.setProperty(STARTED, System.nanoTime()); // the branch time includes embedding the query
        return ctx.query.text().isBlank() ? ctx.request.query() : ctx.query.text();
    }

    public BranchResult semantic(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx,
                                 @Header(VECTOR_HEADER) float[] vector, @ExchangeProperty(STARTED) Long started) {
        long t0 = started != null ? started : System.nanoTime();
        embedding.succeeded();
        List<Hit> hits = vectors.search(vector, ctx.scope, ctx.settings.candidatesPerBranch());
        return BranchResult.ok(Branch.SEMANTIC, hits, millisSince(t0));
    }

    /** Called by the branch-errors route configuration: the branch failed, the query goes on without it. */
    public BranchResult failed(Exchange exchange) {
        Throwable e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        Branch branch = Branch.ofKey(exchange.getProperty(BRANCH, String.class));
        QueryContext ctx = exchange.getProperty(QueryContext.PROPERTY, QueryContext.class);
        if (branch == Branch.SEMANTIC) {
            embedding.failed();
        }
        String reason = e == null ? "failed" : e.getClass().getSimpleName() + ": " + e.getMessage();
        log.warn("{} branch failed: {}", branch.key(), reason);
        return BranchResult.failed(branch, reason, millisSince(ctx.startedNanos));
    }

    /** Tags are filters, not words; mentions are searched as words. Tag-only queries search the tags. */
    static String lexicalText(QueryContext ctx) {
        StringBuilder text = new StringBuilder(ctx.query.text());
        ctx.query.mentions().forEach(m -> text.append(' ').append(m));
        if (text.toString().isBlank()) {
            ctx.query.tags().forEach(t -> text.append(' ').append(t));
        }
        return text.toString().trim();
    }

    static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
