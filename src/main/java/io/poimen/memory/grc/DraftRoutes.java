package io.poimen.memory.grc;

import io.poimen.memory.config.ForgejoProperties;
import io.poimen.memory.ops.RetrievalMetrics;
import org.apache.camel.LoggingLevel;
import org.apache.camel.builder.RouteBuilder;

/**
 * Delivery of stored drafts to Forgejo, the merge of approved drafts on the hub as review host, and the writer's
 * timers that retry both. Owned by the code (docs/architecture.md, "Who owns a flow"): an edit here can deliver a
 * draft twice or never, so these are compiled and not reloaded from {@code routes/}. The API routes of
 * {@code routes/grc.camel.yaml} call {@code direct:grc-deliver} and {@code direct:grc-merge}.
 */
public class DraftRoutes extends RouteBuilder {
    static final String DELIVER = "direct:grc-deliver";
    static final String MERGE = "direct:grc-merge";
    static final String DELIVERY_FAILED = "direct:grc-delivery-failed";

    private final String namespace;
    private final ForgejoProperties.Delivery delivery;
    private final DraftDelivery drafts;
    private final LocalReview review;
    private final RetrievalMetrics metrics;

    public DraftRoutes(String namespace, ForgejoProperties.Delivery delivery, DraftDelivery drafts,
                       LocalReview review, RetrievalMetrics metrics) {
        this.namespace = namespace;
        this.delivery = delivery;
        this.drafts = drafts;
        this.review = review;
        this.metrics = metrics;
    }

    @Override
    public void configure() {
        long retryMs = delivery.retryPeriod().toMillis();
        String writerTimer = "master:" + namespace + ":timer:";

        // one delivery of a draft at a time, and only when it is due; a failed attempt is redelivered with
        // exponential backoff, then the dead-letter step schedules the next attempt for the retry timer
        from(DELIVER).routeId("grc-deliver")
                .errorHandler(deadLetterChannel(DELIVERY_FAILED)
                        .maximumRedeliveries(delivery.redeliveries())
                        .redeliveryDelay(delivery.redeliveryDelay().toMillis())
                        .useExponentialBackOff()
                        .backOffMultiplier(2)
                        .retryAttemptedLogLevel(LoggingLevel.WARN))
                .filter(method(drafts, "claim"))
                    .bean(drafts, "pushBranch")
                    .bean(drafts, "openPullRequest");

        from(DELIVERY_FAILED).routeId("grc-delivery-failed")
                .bean(drafts, "failed");

        // the writer only (after a restart too); claims and the open-pull-request check keep a draft to one pull
        // request across failovers
        from(writerTimer + "grc-retry?period=" + retryMs + "&delay=" + retryMs).routeId("grc-retry")
                .bean(drafts, "due")
                .split(body())
                    .setProperty(DraftDelivery.DRAFT_ID, body())
                    .to(DELIVER);

        // an approved draft merged into the vault branch, then the ingest of what it changed; a failure goes back
        // to the caller (the review API answers it, the timer below tries again)
        from(MERGE).routeId("grc-merge")
                .errorHandler(noErrorHandler())
                .bean(review, "merge")
                .filter(body().isNotNull())
                    .setProperty(LocalReview.MERGED, body())
                    .bean(metrics, "changePickedUp")
                    .to("direct:ingest")
                    .bean(review, "ingested");

        // the writer only: approvals recorded on any replica (or a merge cut short) are merged here, after the
        // branches of finished drafts are deleted
        from(writerTimer + "grc-merge?period=" + retryMs + "&delay=" + retryMs).routeId("grc-merge-requested")
                .onException(Exception.class).handled(true)
                    .log(LoggingLevel.WARN, "approved draft ${exchangeProperty.grcDraftId} not merged yet: "
                            + "${exception.message}")
                .end()
                .bean(review, "prune")
                .bean(review, "requested")
                .split(body())
                    .setProperty(DraftDelivery.DRAFT_ID, body())
                    .to(MERGE);
    }
}
