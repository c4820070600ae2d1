package io.poimen.memory.web.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenBucketsTest {
    /** Time that moves only when the test says so. */
    static final class ManualTicker implements Ticker {
        long nanos = 1_000_000_000L;

        @Override
        public long read() {
            return nanos;
        }

        void advance(Duration d) {
            nanos += d.toNanos();
        }
    }

    @Test
    void aKeyGetsItsLimitAtOnceThenOneTokenPerShareOfTheMinute() {
        ManualTicker time = new ManualTicker();
        TokenBuckets buckets = new TokenBuckets(6, time);
        for (int i = 0; i < 6; i++) {
            assertThat(buckets.take("bob")).as("request %d", i + 1).isZero();
        }
        assertThat(buckets.take("bob")).as("seconds until the next token: 60 / 6").isEqualTo(10);
        assertThat(buckets.take("carol")).as("another key has its own bucket").isZero();

        time.advance(Duration.ofSeconds(4));
        assertThat(buckets.take("bob")).isEqualTo(6);
        time.advance(Duration.ofSeconds(6));
        assertThat(buckets.take("bob")).as("a token after 10 s").isZero();
        assertThat(buckets.take("bob")).isEqualTo(10);

        time.advance(Duration.ofMinutes(5));
        for (int i = 0; i < 6; i++) {
            assertThat(buckets.take("bob")).as("full again, never more than its limit").isZero();
        }
        assertThat(buckets.take("bob")).isPositive();
    }

    @Test
    void aShareBelowOneRequestAMinuteStillWaitsWholeSeconds() {
        ManualTicker time = new ManualTicker();
        TokenBuckets buckets = new TokenBuckets(2.5, time);
        assertThat(buckets.take("a")).isZero();
        assertThat(buckets.take("a")).isZero();
        assertThat(buckets.take("a")).as("half a token left: 0.5 × 60 / 2.5 = 12 s").isEqualTo(12);
        time.advance(Duration.ofMillis(11_999));
        assertThat(buckets.take("a")).as("rounded up, never 0 while refused").isEqualTo(1);
        time.advance(Duration.ofMillis(1));
        assertThat(buckets.take("a")).isZero();
        assertThatThrownBy(() -> new TokenBuckets(0, time)).isInstanceOf(IllegalArgumentException.class);
    }
}
