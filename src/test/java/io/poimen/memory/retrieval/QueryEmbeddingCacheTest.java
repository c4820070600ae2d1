package io.poimen.memory.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

class QueryEmbeddingCacheTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong nanos = new AtomicLong();
    private final CamelContext camel = new DefaultCamelContext();

    private QueryEmbeddingCache cache(String model, long size, Duration ttl) {
        return new QueryEmbeddingCache(model, size, ttl, registry, nanos::get);
    }

    private float[] lookup(QueryEmbeddingCache cache, String text) {
        Exchange e = new DefaultExchange(camel);
        cache.lookup(text, e);
        return e.getMessage().getHeader(BranchSearches.VECTOR_HEADER, float[].class);
    }

    @Test
    void aRememberedVectorIsFoundUnderTheSameTextWhateverItsWhiteSpace() {
        QueryEmbeddingCache cache = cache("m", 10, Duration.ofHours(1));
        assertThat(lookup(cache, "pod crash loop")).isNull();
        cache.remember("pod crash loop", new float[] {1, 2});
        assertThat(lookup(cache, "  pod \t crash\nloop ")).containsExactly(1, 2);
        assertThat(lookup(cache, "pod crash loops")).isNull();
        assertThat(cache.hits()).isEqualTo(1);
        assertThat(cache.misses()).isEqualTo(2);
        assertThat(cache.hitRate()).isEqualTo(1 / 3.0);
        assertThat(registry.get("cache.gets").tags("cache", QueryEmbeddingCache.NAME, "result", "hit")
                .functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("poimen.query.embedding.cache.hit.ratio").gauge().value()).isEqualTo(1 / 3.0);
    }

    @Test
    void theCallerCannotChangeACachedVector() {
        QueryEmbeddingCache cache = cache("m", 10, Duration.ofHours(1));
        float[] v = {1, 2};
        cache.remember("q", v);
        v[0] = 9;
        lookup(cache, "q")[1] = 9;
        assertThat(lookup(cache, "q")).containsExactly(1, 2);
    }

    @Test
    void anotherModelNeverSeesTheVector() {
        QueryEmbeddingCache minilm = cache("minilm", 10, Duration.ofHours(1));
        assertThat(minilm.key("q")).isNotEqualTo(cache("bge", 10, Duration.ofHours(1)).key("q"));
    }

    @Test
    void entriesExpireAfterTheTtlAndTheSizeIsBounded() {
        QueryEmbeddingCache cache = cache("m", 3, Duration.ofHours(1));
        cache.remember("old", new float[] {1});
        nanos.addAndGet(Duration.ofMinutes(61).toNanos());
        assertThat(lookup(cache, "old")).isNull();
        for (int i = 0; i < 50; i++) {
            cache.remember("q" + i, new float[] {i});
        }
        assertThat(cache.size()).isLessThanOrEqualTo(3);
        QueryEmbeddingCache off = cache("m", 0, Duration.ofHours(1));
        off.remember("q", new float[] {1});
        assertThat(lookup(off, "q")).isNull();
        assertThatThrownBy(() -> cache("m", -1, Duration.ofHours(1))).isInstanceOf(IllegalArgumentException.class);
    }
}
