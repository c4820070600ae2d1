package io.poimen.memory.cluster;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * When the coordination.k8s.io Lease a holder holds was last renewed, read from the API server (the client
 * configures itself as camel-kubernetes' does: service account in a pod, else the fabric8 system properties).
 */
final class KubernetesLeaseRenewals implements Function<String, Optional<Instant>> {
    private final String namespace;
    private volatile KubernetesClient client;

    KubernetesLeaseRenewals(String namespace) {
        this.namespace = namespace;
    }

    @Override
    public Optional<Instant> apply(String holder) {
        KubernetesClient c = client();
        String ns = namespace == null || namespace.isBlank() ? c.getNamespace() : namespace;
        return c.leases().inNamespace(ns).list().getItems().stream()
                .map(Lease::getSpec)
                .filter(spec -> spec != null && Objects.equals(holder, spec.getHolderIdentity())
                        && spec.getRenewTime() != null)
                .map(spec -> spec.getRenewTime().toInstant())
                .max(Instant::compareTo);
    }

    private KubernetesClient client() {
        KubernetesClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = new KubernetesClientBuilder().build();
                }
                c = client;
            }
        }
        return c;
    }
}
