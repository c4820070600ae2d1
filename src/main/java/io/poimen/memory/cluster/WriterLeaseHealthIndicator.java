package io.poimen.memory.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Readiness of the writer on Kubernetes. camel-kubernetes' Lease lock counts a holder valid while its pod is a
 * ready member, whatever the Lease's renew time says; so a writer whose election loop stopped (a stuck thread)
 * while its pod stays Ready would keep the lease for ever. This indicator reports OUT_OF_SERVICE when this replica
 * still leads by its own view but the Lease naming it was not renewed within the lease duration (or cannot be
 * read): the pod leaves the Ready set and the other replicas' locks take the lease. A follower is always UP here.
 * With the JDBC lease it is always UP: that lease lapses by the database clock and its view stops leading by
 * itself. In the readiness group on k8s ({@code k8s/base/hub-config.yaml}).
 */
public class WriterLeaseHealthIndicator implements HealthIndicator {
    private final Leadership leadership;
    /** Holder id → when the Lease it holds was last renewed; null with the JDBC lease. */
    private final Function<String, Optional<Instant>> renewals;
    private final Duration lease;
    private final Clock clock;

    public WriterLeaseHealthIndicator(Leadership leadership, Function<String, Optional<Instant>> renewals,
                                      Duration lease, Clock clock) {
        this.leadership = leadership;
        this.renewals = renewals;
        this.lease = lease;
        this.clock = clock;
    }

    @Override
    public Health health() {
        boolean writer = leadership.isLeader();
        if (renewals == null || !writer) {
            return Health.up().withDetail("writer", writer).build();
        }
        String me = leadership.localId();
        Optional<Instant> renewed;
        try {
            renewed = renewals.apply(me);
        } catch (RuntimeException e) {
            return Health.outOfService().withDetail("writer", true)
                    .withDetail("reason", "cannot read the Lease: " + e.getMessage()).build();
        }
        if (renewed.isEmpty()) {
            return Health.outOfService().withDetail("writer", true)
                    .withDetail("reason", "leads, but no Lease names " + me).build();
        }
        Duration age = Duration.between(renewed.get(), clock.instant());
        Health.Builder health = age.compareTo(lease) > 0 ? Health.outOfService()
                .withDetail("reason", "the election loop has not renewed the Lease for " + age.toMillis() + " ms")
                : Health.up();
        return health.withDetail("writer", true).withDetail("lease_renewed_ms_ago", age.toMillis()).build();
    }
}
