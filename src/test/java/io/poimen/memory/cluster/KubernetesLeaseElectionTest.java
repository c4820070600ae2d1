package io.poimen.memory.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.poimen.memory.config.ClusterProperties;
import io.poimen.memory.testsupport.TestPostgres;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.apache.camel.component.kubernetes.cluster.KubernetesClusterService;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code poimen.cluster.service=kubernetes} election as {@link ClusterConfig} builds it (camel-kubernetes'
 * Lease service, the hub's pod labels and lease timings), against a Kubernetes API server in CRUD mode: fabric8's
 * mock server stands in for the cluster that cannot run on this machine. Two replicas: one holds the
 * coordination.k8s.io Lease, the other takes it over when the holder's pod dies, and the new writer records its
 * catch-up request in the request table (as on the JDBC election). Only ready pods with the hub's labels compete.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesLeaseElectionTest {
    private static final String K8S_NAMESPACE = "poimen";
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration RENEW = Duration.ofMillis(400);
    private static final DataSource DB = TestPostgres.freshDatabase("k8s_lease");

    static KubernetesMockServer server;
    static KubernetesClient client;

    private final ClusterConfig config = new ClusterConfig();
    private final JdbcTemplate jdbc = new JdbcTemplate(DB);
    private DefaultCamelContext a;
    private DefaultCamelContext b;

    @BeforeAll
    static void pointFabric8AtTheMockServer() {
        System.setProperty("kubernetes.master", client.getMasterUrl().toString());
        System.setProperty("kubernetes.auth.tryKubeConfig", "false");
        System.setProperty("kubernetes.auth.tryServiceAccount", "false");
    }

    @AfterAll
    static void forgetTheMockServer() {
        System.clearProperty("kubernetes.master");
        System.clearProperty("kubernetes.auth.tryKubeConfig");
        System.clearProperty("kubernetes.auth.tryServiceAccount");
    }

    @AfterEach
    void stop() {
        for (DefaultCamelContext camel : new DefaultCamelContext[] {a, b}) {
            if (camel != null) {
                camel.stop();
            }
        }
        jdbc.update("delete from cluster_requests");
        client.leases().inNamespace(K8S_NAMESPACE).delete();
        client.pods().inNamespace(K8S_NAMESPACE).delete();
    }

    @Test
    void oneReplicaHoldsTheLeaseAndTheOtherTakesOverWithinTheLeaseWhenItStops() throws Exception {
        Replicas replicas = twoReadyReplicasOneLeading();
        Leadership leader = replicas.leader();
        Leadership follower = replicas.follower();
        await().atMost(Duration.ofSeconds(5)).until(() -> leader.localId().equals(follower.leaderId()));
        assertThat(leaseHolder()).as("the Lease resource names the writer").contains(leader.localId());
        leader.ready();
        follower.ready();
        assertThat(requests()).as("no take-over yet, no catch-up").isZero();

        // the leader's pod dies: its process stops and Kubernetes removes the pod (Camel's Lease lock counts a
        // holder valid while its pod is a ready member, so the pod leaving is what hands the lease on)
        long t0 = System.nanoTime();
        if (leader == replicas.a()) {
            a.stop();
            a = null;
        } else {
            b.stop();
            b = null;
        }
        client.pods().inNamespace(K8S_NAMESPACE).withName(leader.localId()).delete();
        await().atMost(Duration.ofSeconds(15)).until(follower::isLeader);
        Duration takeOver = Duration.ofNanos(System.nanoTime() - t0);
        System.out.printf("kubernetes lease take-over after the holder's pod went: %d ms (lease %d ms)%n",
                takeOver.toMillis(), LEASE.toMillis());

        assertThat(takeOver).as("the issue's bound for a lost writer").isLessThan(Duration.ofSeconds(15));
        await().atMost(Duration.ofSeconds(5)).until(() -> leaseHolder().equals(Optional.of(follower.localId())));
        assertThat(jdbc.queryForList("select kind from cluster_requests", String.class))
                .as("the new writer asks to catch up (no git: a reindex)").containsExactly(ClusterRequests.INGEST);
    }

    @Test
    void theWritersReadinessFailsWhenItsLeaseGoesUnrenewedForLongerThanTheLease() throws Exception {
        Replicas replicas = twoReadyReplicasOneLeading();
        Leadership leader = replicas.leader();
        Leadership follower = replicas.follower();
        KubernetesLeaseRenewals renewals = new KubernetesLeaseRenewals(K8S_NAMESPACE);

        // the election loop renews the Lease: the writer is ready, for several lease periods
        WriterLeaseHealthIndicator writer = new WriterLeaseHealthIndicator(leader, renewals, LEASE, Clock.systemUTC());
        await().during(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(3))
                .until(() -> writer.health().getStatus().equals(Status.UP));
        assertThat(writer.health().getDetails()).containsEntry("writer", true);

        // seen from a lease and a half later with no renewal in between (what a stopped loop leaves behind, while
        // the view still says "leader"): out of service, so Kubernetes takes the pod out of the Ready set
        Clock later = Clock.offset(Clock.systemUTC(), LEASE.multipliedBy(3).dividedBy(2).plus(RENEW));
        Health stale = new WriterLeaseHealthIndicator(leader, renewals, LEASE, later).health();
        assertThat(stale.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(stale.getDetails().get("reason").toString()).contains("has not renewed the Lease");
        assertThat(new WriterLeaseHealthIndicator(leader, holder -> Optional.empty(), LEASE, Clock.systemUTC())
                .health().getStatus()).as("leads, but no Lease names it").isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(new WriterLeaseHealthIndicator(leader, holder -> {
            throw new IllegalStateException("API server unreachable");
        }, LEASE, Clock.systemUTC()).health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        // a follower is not the writer: its readiness does not depend on the Lease
        Health followerHealth = new WriterLeaseHealthIndicator(follower, renewals, LEASE, later).health();
        assertThat(followerHealth.getStatus()).isEqualTo(Status.UP);
        assertThat(followerHealth.getDetails()).containsEntry("writer", false);
    }

    @Test
    void aReplicaWhosePodIsNotAReadyMemberOfTheHubNeverLeads() throws Exception {
        pod("hub-unready", HUB_LABELS, false);
        pod("other-app", Map.of("app.kubernetes.io/name", "other"), true);
        Leadership leadershipA = replicaA("hub-unready");
        Leadership leadershipB = replicaB("other-app");

        // four renew periods: time enough for a member to take a free lease
        await().during(RENEW.multipliedBy(4)).atMost(Duration.ofSeconds(5))
                .until(() -> !leadershipA.isLeader() && !leadershipB.isLeader());
        assertThat(leaseHolder()).isEmpty();
    }

    /** Replica a and b on ready hub pods, once one of them leads. */
    private record Replicas(Leadership a, Leadership leader, Leadership follower) {
    }

    private Replicas twoReadyReplicasOneLeading() throws Exception {
        pod("hub-a");
        pod("hub-b");
        Leadership leadershipA = replicaA("hub-a");
        Leadership leadershipB = replicaB("hub-b");
        await().atMost(Duration.ofSeconds(15)).until(() -> leadershipA.isLeader() != leadershipB.isLeader());
        Leadership leader = leadershipA.isLeader() ? leadershipA : leadershipB;
        return new Replicas(leadershipA, leader, leader == leadershipA ? leadershipB : leadershipA);
    }

    private Leadership replicaA(String podName) throws Exception {
        ClusterProperties settings = settings(podName);
        KubernetesClusterService service = service(settings);
        a = node(service);
        return leadership(service, settings);
    }

    private Leadership replicaB(String podName) throws Exception {
        ClusterProperties settings = settings(podName);
        KubernetesClusterService service = service(settings);
        b = node(service);
        return leadership(service, settings);
    }

    private static ClusterProperties settings(String podName) {
        return new ClusterProperties("kubernetes", "poimen-writer", podName, LEASE, RENEW, Duration.ofMillis(250),
                Duration.ofMillis(250));
    }

    /**
     * As in a pod, the service finds the API server by fabric8's auto-configuration (there from the service
     * account's environment, here from the system properties it reads first).
     */
    private KubernetesClusterService service(ClusterProperties settings) {
        return config.kubernetesClusterService(settings, K8S_NAMESPACE);
    }

    private Leadership leadership(KubernetesClusterService service, ClusterProperties settings) {
        return new Leadership(service, settings.namespace(), new ClusterRequests(DB, settings.nodeId()), false);
    }

    private static DefaultCamelContext node(KubernetesClusterService service) throws Exception {
        DefaultCamelContext camel = new DefaultCamelContext();
        camel.addService(service);
        camel.start();
        return camel;
    }

    private static final Map<String, String> HUB_LABELS =
            Map.of("app.kubernetes.io/name", "poimen-memory", "app.kubernetes.io/component", "hub");

    /** A running, ready pod with the labels the hub's Deployment gives its pods (k8s/base/hub-deployment.yaml). */
    private static void pod(String name) {
        pod(name, HUB_LABELS, true);
    }

    private static void pod(String name, Map<String, String> labels, boolean ready) {
        client.pods().inNamespace(K8S_NAMESPACE).resource(new PodBuilder()
                .withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
                .addNewContainerStatus().withName("hub").withReady(ready)
                .withNewState().withNewRunning().endRunning().endState().endContainerStatus()
                .endStatus().build()).create();
    }

    private static Optional<String> leaseHolder() {
        List<Lease> leases = client.leases().inNamespace(K8S_NAMESPACE).list().getItems();
        return leases.stream().map(l -> l.getSpec().getHolderIdentity()).filter(h -> h != null && !h.isBlank())
                .findFirst();
    }

    private int requests() {
        return jdbc.queryForObject("select count(*) from cluster_requests", Integer.class);
    }
}
