package io.poimen.memory.security.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.springframework.cache.Cache;
import org.springframework.cache.support.SimpleValueWrapper;

/**
 * The issuer's JWKS as the bearer-token decoder keeps it ({@code NimbusJwtDecoder}'s JWK set cache): kept for
 * {@code ttl}, and fetched again for a token whose {@code kid} it does not know at most once per
 * {@code refetchInterval}. Spring's decoder turns Nimbus' own rate limit off and refetches for every unknown
 * {@code kid}, so a stream of tokens with made-up key ids made one JWKS request each; now they cost one per interval,
 * and a key the issuer rotated in is still picked up by the first token that uses it after the interval. A fetch
 * that fails keeps the keys fetched before (tried again after the interval), so a short outage of the issuer does not
 * refuse every caller once {@code ttl} is over.
 */
final class JwksCache implements Cache {
    private final Duration ttl;
    private final Duration refetchInterval;
    private final Clock clock;
    private Object keys;
    private Instant fetched;
    private Instant lastAttempt;

    JwksCache(Duration ttl, Duration refetchInterval, Clock clock) {
        this.ttl = ttl;
        this.refetchInterval = refetchInterval;
        this.clock = clock;
    }

    @Override
    public String getName() {
        return "jwks";
    }

    @Override
    public Object getNativeCache() {
        return this;
    }

    @Override
    public synchronized ValueWrapper get(Object key) {
        return keys == null ? null : new SimpleValueWrapper(keys);
    }

    @Override
    public synchronized <T> T get(Object key, Class<T> type) {
        return type.cast(keys);
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <T> T get(Object key, Callable<T> loader) {
        Instant now = clock.instant();
        boolean fresh = fetched != null && now.isBefore(fetched.plus(ttl));
        if (keys != null && (fresh || tooSoon(now))) {
            return (T) keys;
        }
        if (keys == null && tooSoon(now)) {
            throw new ValueRetrievalException(key, loader, new IllegalStateException(
                    "the issuer's JWKS could not be fetched moments ago; it is tried again after " + refetchInterval));
        }
        lastAttempt = now;
        try {
            T loaded = loader.call();
            keys = loaded;
            fetched = now;
            return loaded;
        } catch (Exception e) {
            if (keys != null) {
                return (T) keys; // the keys of the last good fetch, until the issuer answers again
            }
            throw new ValueRetrievalException(key, loader, e);
        }
    }

    @Override
    public synchronized void put(Object key, Object value) {
        keys = value;
        fetched = clock.instant();
    }

    @Override
    public void evict(Object key) {
        invalidate();
    }

    @Override
    public synchronized void clear() {
        keys = null;
        fetched = null;
    }

    /** A token with an unknown {@code kid}: fetch again, unless a fetch was tried within the interval. */
    @Override
    public synchronized boolean invalidate() {
        if (tooSoon(clock.instant())) {
            return false;
        }
        fetched = null; // the keys stay as the fallback of a failed fetch
        return true;
    }

    private boolean tooSoon(Instant now) {
        return lastAttempt != null && now.isBefore(lastAttempt.plus(refetchInterval));
    }
}
