package io.poimen.memory.cluster;

import io.poimen.memory.config.ClusterProperties;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteDefinition;

/**
 * The writer's and the followers' routes (docs/operations.md, "Several replicas"). Owned by the code, not by
 * operators (docs/architecture.md, "Who owns a flow"): an edit here can stop ingest on every replica, so these are
 * compiled and not reloaded from {@code routes/}. {@code master:} consumers run only on the leader of
 * {@code poimen.cluster.namespace} and move to another replica when it goes.
 */
public class ClusterRoutes extends RouteBuilder {
    /** Waits for the sync to finish, however long it takes: a request is done only when its work is. */
    static final String SYNC = "seda:git-sync?waitForTaskToComplete=Always&timeout=0";
    static final String INGEST = "direct:ingest";

    private final ClusterProperties cluster;
    private final boolean gitEnabled;
    private final ClusterRequests requests;
    private final IndexFollower follower;

    public ClusterRoutes(ClusterProperties cluster, boolean gitEnabled, ClusterRequests requests,
                         IndexFollower follower) {
        this.cluster = cluster;
        this.gitEnabled = gitEnabled;
        this.requests = requests;
        this.follower = follower;
    }

    @Override
    public void configure() {
        String master = "master:" + cluster.namespace() + ":timer:";

        // syncs and reindexes requested on any replica (webhooks, POST /memory/admin/reindex, a new leader's
        // catch-up), all pending ones at once; a failure marks them done with its error
        from(master + "cluster-requests?period=" + cluster.requestsPeriod().toMillis())
                .routeId("cluster-requests")
                .onException(Exception.class).handled(true).bean(requests, "failed").end()
                .bean(requests, "take")
                .filter(body().isNotNull())
                    .setProperty(ClusterWork.PROPERTY, body())
                    .filter(e -> work(e).isSync())
                        .to(SYNC)
                    .end()
                    .filter(e -> work(e).isIngest())
                        .setBody(constant(null))
                        .to(INGEST)
                    .end()
                    .setBody(exchangeProperty(ClusterWork.PROPERTY))
                    .bean(requests, "done")
                .end();

        // every replica: reload the notes other replicas wrote into the in-process TF-IDF index and graph; with
        // git, bring the local working copy to the commit the writer indexed (a follower pulls, it does not ingest)
        RouteDefinition follow = from("timer:index-follow?period=" + cluster.followPeriod().toMillis())
                .routeId("index-follow")
                .bean(follower, "poll");
        if (gitEnabled) {
            follow.filter(method(follower, "pullDue")).to("seda:git-sync?waitForTaskToComplete=Never");
        }

        // the writer's housekeeping: done requests and change-log rows older than a day
        from(master + "cluster-trim?period=3600000")
                .routeId("cluster-trim")
                .bean(requests, "trim");
    }

    private static ClusterWork work(Exchange exchange) {
        return exchange.getProperty(ClusterWork.PROPERTY, ClusterWork.class);
    }
}
