package io.poimen.memory.cluster;

import io.poimen.memory.config.ClusterProperties;
import io.poimen.memory.config.GitProperties;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.index.tfidf.TfIdfIndex;
import io.poimen.memory.security.auth.CallerResolver;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.cluster.CamelClusterService;
import org.apache.camel.component.kubernetes.cluster.KubernetesClusterService;
import org.apache.camel.component.kubernetes.cluster.LeaseResourceType;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Several replicas on one database: the writer election ({@code poimen.cluster.service}: {@code jdbc}, a lease row,
 * or {@code kubernetes}, camel-kubernetes' Lease service configured under {@code camel.cluster.kubernetes.*}),
 * the request table the writer works from, and the change log the other replicas follow.
 */
@Configuration
public class ClusterConfig {

    @Bean
    @ConditionalOnProperty(name = "poimen.cluster.service", havingValue = "jdbc", matchIfMissing = true)
    JdbcLeaseClusterService jdbcLeaseClusterService(DataSource dataSource, ClusterProperties settings) {
        return new JdbcLeaseClusterService(new LeaseTable(dataSource), settings);
    }

    /**
     * On Kubernetes: a coordination.k8s.io Lease per namespace, among the hub's pods (their labels); the pod name is
     * this replica's id (set {@code poimen.cluster.node-id} from the downward API), the namespace {@code POD_NAMESPACE}.
     */
    @Bean
    @ConditionalOnProperty(name = "poimen.cluster.service", havingValue = "kubernetes")
    KubernetesClusterService kubernetesClusterService(ClusterProperties settings,
                                                      @Value("${POD_NAMESPACE:}") String podNamespace) {
        KubernetesClusterService service = new KubernetesClusterService();
        service.setLeaseResourceType(LeaseResourceType.Lease);
        service.setPodName(settings.nodeId());
        if (!podNamespace.isBlank()) {
            // the Lease and the member pods live there; the client's own namespace setting is not applied when
            // it auto-configures (in a pod, or from a kubeconfig), so the lock needs it as well
            service.setKubernetesNamespace(podNamespace);
            service.setKubernetesResourcesNamespace(podNamespace);
        }
        service.setClusterLabels(Map.of("app.kubernetes.io/name", "poimen-memory", "app.kubernetes.io/component", "hub"));
        service.setLeaseDurationMillis(settings.lease().toMillis());
        service.setRenewDeadlineMillis(settings.lease().minus(settings.renew().multipliedBy(2)).toMillis());
        service.setRetryPeriodMillis(settings.renew().toMillis());
        return service;
    }

    @Bean
    ClusterRequests clusterRequests(DataSource dataSource, ClusterProperties settings) {
        return new ClusterRequests(dataSource, settings.nodeId());
    }

    @Bean
    Leadership leadership(CamelClusterService service, ClusterProperties settings, ClusterRequests requests,
                          GitProperties git) {
        return new Leadership(service, settings.namespace(), requests, git.enabled());
    }

    /** In the readiness group on k8s: a writer whose election loop stopped leaves the Ready set. */
    @Bean
    WriterLeaseHealthIndicator writerLeaseHealthIndicator(Leadership leadership, CamelClusterService service,
                                                          ClusterProperties settings,
                                                          @Value("${POD_NAMESPACE:}") String podNamespace) {
        return new WriterLeaseHealthIndicator(leadership, service instanceof KubernetesClusterService
                ? new KubernetesLeaseRenewals(podNamespace) : null, settings.lease(), java.time.Clock.systemUTC());
    }

    @Bean
    IndexFollower indexFollower(DataSource dataSource, NoteStore notes, TfIdfIndex tfidf, GraphService graph,
                                ClusterProperties settings) {
        return new IndexFollower(dataSource, notes, tfidf, graph, settings.nodeId());
    }

    /** The writer's and the followers' routes (Java DSL: owned by the code, not reloaded from routes/). */
    @Bean
    ClusterRoutes clusterRoutes(ClusterProperties settings, GitProperties git, ClusterRequests requests,
                                IndexFollower follower) {
        return new ClusterRoutes(settings, git.enabled(), requests, follower);
    }

    @Bean
    ClusterStatus clusterStatus(Leadership leadership, IndexFollower follower, ClusterRequests requests,
                                TfIdfIndex tfidf, GraphService graph, CallerResolver callers,
                                io.poimen.memory.security.Access checks) {
        return new ClusterStatus(leadership, follower, requests, tfidf, graph, callers, checks);
    }
}
