package io.poimen.memory.health;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.config.WatchedYamlFile;
import io.poimen.memory.retrieval.RetrievalPolicy;
import io.poimen.memory.security.policy.PolicyStore;
import io.poimen.memory.security.policy.RolePolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.stereotype.Component;

/**
 * The run-time policy files ({@code /actuator/health} component {@code policies}): UP when each file on disk is the
 * one in force; {@value StoresHealthIndicator#DEGRADED} with the file, line and key when one was rejected and its
 * previous version still applies. The same for each access policy ({@code _access.yaml}, {@code default.yaml}) that
 * is rejected, keyed by its path, saying whether its previous version applies or (no earlier good version) the
 * access it governs is denied. The gauge {@code poimen.policy.rejected{file}} is 1 for such a file; for
 * {@code file=_access.yaml} it counts the rejected access policy files.
 */
@Component("policies")
public class PolicyFilesHealthIndicator implements HealthIndicator {
    private final List<WatchedYamlFile<?>> files;
    private final PolicyStore access;

    public PolicyFilesHealthIndicator(RetrievalPolicy retrieval, RolePolicy roles, PolicyStore access,
                                      MeterRegistry registry) {
        this.files = List.of(retrieval.watched(), roles.watched());
        this.access = access;
        Gauge.builder("poimen.policy.rejected", access, a -> a.rejected().size())
                .description("access policy files (_access.yaml, default.yaml) on disk that are rejected")
                .tag("file", PolicyStore.POLICY_FILE)
                .register(registry);
        for (WatchedYamlFile<?> f : files) {
            Gauge.builder("poimen.policy.rejected", f, w -> w.error() == null ? 0 : 1)
                    .description("1 while the file on disk is rejected and its previous version applies")
                    .tag("file", f.file().getFileName().toString())
                    .register(registry);
        }
    }

    @Override
    public Health health() {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean rejected = false;
        for (WatchedYamlFile<?> f : files) {
            String error = f.error();
            details.put(f.file().getFileName().toString(), error == null ? "in force"
                    : "rejected, previous version in force: " + error);
            rejected |= error != null;
        }
        Map<String, String> access = this.access.rejected();
        access.forEach(details::put);
        rejected |= !access.isEmpty();
        return Health.status(rejected ? new Status(StoresHealthIndicator.DEGRADED) : Status.UP).withDetails(details)
                .build();
    }
}
