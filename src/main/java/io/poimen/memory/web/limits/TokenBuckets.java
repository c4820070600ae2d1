package io.poimen.memory.web.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;

/**
 * One token bucket per key: it holds at most {@code perMinute} tokens and fills at {@code perMinute} per minute;
 * a request takes one. So a key gets at most {@code perMinute} requests at once and {@code perMinute} a minute
 * after that. A bucket that has not been used for a minute is full again, so it is dropped then (a new one starts
 * full): the memory held is that of the keys seen in the last minute, at most {@value #MAX_KEYS}.
 */
final class TokenBuckets {
    static final long MAX_KEYS = 100_000;
    private static final double NANOS_PER_MINUTE = Duration.ofMinutes(1).toNanos();

    private final double capacity;
    private final Ticker ticker;
    private final Cache<String, Bucket> buckets;

    /** @param perMinute tokens a minute and at most in a bucket, &gt; 0 (fractions allowed) */
    TokenBuckets(double perMinute, Ticker ticker) {
        if (!(perMinute > 0)) {
            throw new IllegalArgumentException("a bucket fills at a positive rate, got " + perMinute);
        }
        this.capacity = perMinute;
        this.ticker = ticker;
        this.buckets = Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(1)).maximumSize(MAX_KEYS)
                .ticker(ticker).executor(Runnable::run).build();
    }

    /** Takes a token of {@code key}'s bucket: 0 when there was one, else the whole seconds until there is one. */
    long take(String key) {
        long now = ticker.read();
        return buckets.get(key, k -> new Bucket(capacity, now)).take(now, capacity);
    }

    private static final class Bucket {
        private double tokens;
        private long at;

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }

        synchronized long take(long now, double capacity) {
            tokens = Math.min(capacity, tokens + Math.max(0, now - at) * capacity / NANOS_PER_MINUTE);
            at = Math.max(at, now);
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            double seconds = (1 - tokens) * 60 / capacity;
            return Math.max(1, (long) Math.ceil(seconds));
        }
    }
}
