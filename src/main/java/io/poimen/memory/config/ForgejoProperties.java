package io.poimen.memory.config;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code poimen.forgejo.*}: the Forgejo (Gitea-compatible) API that holds the vault's pull requests.
 *
 * @param url      base URL, e.g. {@code https://forgejo.example.org} (the API is under {@code /api/v1})
 * @param token    API token, sent as {@code Authorization: token <token>}
 * @param owner    owner (user or organisation) of the vault repository
 * @param repo     repository name
 * @param timeout  connect and request timeout of each API call
 * @param delivery how drafts are retried
 */
public record ForgejoProperties(String url, String token, String owner, String repo, @DefaultValue("10s") Duration timeout,
                                @DefaultValue Delivery delivery) {
    public ForgejoProperties {
        url = url != null && url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    public boolean configured() {
        return url != null && !url.isBlank() && owner != null && !owner.isBlank() && repo != null && !repo.isBlank();
    }

    /**
     * Retry of drafts that could not be delivered. After attempt {@code n} fails, the next one is due after
     * {@code min(backoffMax, backoffBase * 2^(n-1))}; after {@code maxAttempts} the draft is marked failed.
     *
     * @param backoffBase       wait after the first failed attempt
     * @param backoffMax        longest wait between attempts
     * @param deliveringTimeout a draft claimed this long ago without an outcome (the hub died) is claimed again
     * @param maxAttempts       attempts before giving up
     * @param redeliveries      immediate retries of a failed Forgejo call within one attempt
     * @param redeliveryDelay   wait between those retries
     * @param retryPeriod       how often the writer looks for drafts due for another attempt
     */
    public record Delivery(@DefaultValue("30s") Duration backoffBase, @DefaultValue("30m") Duration backoffMax,
                           @DefaultValue("5m") Duration deliveringTimeout, @DefaultValue("50") int maxAttempts,
                           @DefaultValue("2") int redeliveries, @DefaultValue("500ms") Duration redeliveryDelay,
                           @DefaultValue("15s") Duration retryPeriod) {

        /** Wait before the attempt after {@code attempts} failed ones. */
        public Duration backoff(int attempts) {
            int doublings = Math.max(0, Math.min(attempts - 1, 30));
            Duration wait = backoffBase.multipliedBy(1L << doublings);
            return wait.compareTo(backoffMax) > 0 || wait.isNegative() ? backoffMax : wait;
        }
    }
}
