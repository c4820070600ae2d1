package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.Branch;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;

/**
 * Starts the query embedding before the branches are dispatched (the {@code query-embedding} route, wire-tapped
 * after the plan), so the model runs while the other branches search instead of before the vector search: on a
 * 2-core host the three branches mostly run one after another, and the embedding is most of the semantic
 * branch. The semantic branch then waits for that vector. A route without the wire tap still works: the branch
 * embeds the query itself through the same route.
 */
public class QueryVectorPrefetch {
    static final String STARTED = "poimenEmbeddingStarted";

    private final long waitMs;

    /** @param wait how long the semantic branch waits for the vector (the branch timeout) */
    public QueryVectorPrefetch(Duration wait) {
        this.waitMs = wait.toMillis();
    }

    /** Whether this query needs a vector, and none is being computed yet. */
    public boolean wanted(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx) {
        return ctx.runs(Branch.SEMANTIC) && ctx.queryVector == null;
    }

    /** Marks the vector as on its way; the semantic branch waits for it from now on. */
    public void begin(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        ctx.queryVector = new CompletableFuture<>();
        exchange.setProperty(STARTED, System.nanoTime());
    }

    /** Last step of the query-embedding route: hands the vector (from the cache or the model) to the branch. */
    public void done(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx,
                     @Header(BranchSearches.VECTOR_HEADER) float[] vector, @ExchangeProperty(STARTED) Long started) {
        if (started != null) {
            ctx.time("embedding", started);
        }
        if (vector == null) {
            ctx.queryVector.completeExceptionally(new IllegalStateException("the embedding endpoint answered no vector"));
        } else {
            ctx.queryVector.complete(vector);
        }
    }

    /** The query-embedding route failed: the semantic branch fails with the model's error. */
    public void failed(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) {
        Throwable e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        ctx.queryVector.completeExceptionally(e != null ? e : new IllegalStateException("query embedding failed"));
    }

    /** Semantic branch: sets the vector header once the query-embedding route has it. */
    public void await(@ExchangeProperty(QueryContext.PROPERTY) QueryContext ctx, Exchange exchange) throws Exception {
        try {
            exchange.getMessage().setHeader(BranchSearches.VECTOR_HEADER,
                    ctx.queryVector.get(waitMs, TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new TimeoutException("no query vector after " + waitMs + " ms");
        }
    }
}
