package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.config.HttpProperties;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

/**
 * The body cap of each endpoint: a Content-Length over it is refused before a byte is read, a body without a length
 * is read to one byte over it at most, a body within it reaches the chain in memory, and a body still arriving
 * when the hub stops is answered 503.
 */
class RequestBodyLimitFilterTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpProperties.MaxBody CAPS = new HttpProperties.MaxBody(DataSize.ofKilobytes(64),
            DataSize.ofMegabytes(4), DataSize.ofKilobytes(32), DataSize.ofMegabytes(1), DataSize.ofMegabytes(3),
            DataSize.ofKilobytes(16));
    final RequestBodyLimitFilter filter = new RequestBodyLimitFilter(CAPS);

    /** A body of {@code length} bytes that counts what was read of it. */
    static final class CountedBody extends ServletInputStream {
        final long length;
        final AtomicLong read = new AtomicLong();

        CountedBody(long length) {
            this.length = length;
        }

        @Override
        public int read() {
            return read.get() < length && read.incrementAndGet() > 0 ? ' ' : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = (int) Math.min(len, length - read.get());
            if (n <= 0) {
                return len == 0 ? 0 : -1;
            }
            java.util.Arrays.fill(b, off, off + n, (byte) ' ');
            read.addAndGet(n);
            return n;
        }

        @Override
        public boolean isFinished() {
            return read.get() >= length;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
        }
    }

    record Sent(MockHttpServletResponse response, MockFilterChain chain, CountedBody body) {
        JsonNode json() throws Exception {
            return JSON.readTree(response.getContentAsString(StandardCharsets.UTF_8));
        }
    }

    Sent post(String path, long length, boolean chunked) throws Exception {
        CountedBody body = new CountedBody(length);
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path) {
            @Override
            public ServletInputStream getInputStream() {
                return body;
            }

            @Override
            public long getContentLengthLong() {
                return chunked ? -1 : length;
            }
        };
        if (chunked) {
            request.addHeader("Transfer-Encoding", "chunked");
        }
        request.setContentType("application/json");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        return new Sent(response, chain, body);
    }

    @Test
    void eachEndpointHasItsConfiguredCap() {
        Map<String, Long> expected = Map.of("/memory/query", 64L << 10, "/memory/grc/draft", 4L << 20,
                "/memory/agents/events", 32L << 10, "/memory/webhooks/forgejo", 1L << 20, "/mcp", 3L << 20,
                "/memory/admin/reindex", 16L << 10, "/index.html", 16L << 10);
        expected.forEach((path, cap) -> assertThat(filter.limitOf(new MockHttpServletRequest("POST", path)).bytes())
                .as(path).isEqualTo(cap));
    }

    @Test
    void aContentLengthOverTheCapIsA413BeforeAByteIsRead() throws Exception {
        Sent s = post("/memory/webhooks/forgejo", 600L << 20, false);
        assertThat(s.response().getStatus()).isEqualTo(413);
        assertThat(s.body().read.get()).as("bytes read").isZero();
        assertThat(s.chain().getRequest()).as("the chain is not reached").isNull();
        assertThat(s.json().path("error").asText()).isEqualTo("payload_too_large");
        assertThat(s.json().path("message").asText()).contains("1048576", "poimen.http.max-body.webhook",
                "Content-Length " + (600L << 20));
    }

    @Test
    void aBodyWithoutALengthIsReadToOneByteOverTheCapAtMost() throws Exception {
        for (String path : new String[] {"/memory/query", "/mcp", "/memory/admin/reindex"}) {
            long cap = filter.limitOf(new MockHttpServletRequest("POST", path)).bytes();
            Sent s = post(path, 64L << 20, true);
            assertThat(s.response().getStatus()).as(path).isEqualTo(413);
            assertThat(s.body().read.get()).as(path + ": bytes read").isEqualTo(cap + 1);
            assertThat(s.chain().getRequest()).isNull();
        }
    }

    @Test
    void aBodyWithinItsCapReachesTheChainWholeAndInMemory() throws Exception {
        for (boolean chunked : new boolean[] {false, true}) {
            Sent s = post("/memory/query", 64L << 10, chunked);
            HttpServletRequest passed = (HttpServletRequest) s.chain().getRequest();
            assertThat(passed).as("chunked " + chunked).isInstanceOf(BufferedBodyRequest.class);
            assertThat(passed.getContentLengthLong()).isEqualTo(64L << 10);
            assertThat(passed.getInputStream().readAllBytes()).hasSize(64 << 10);
            assertThat(passed.getInputStream().readAllBytes()).as("read again").hasSize(64 << 10);
            assertThat(s.body().read.get()).isEqualTo(64L << 10);
        }
    }

    @Test
    void aRequestWithoutABodyPassesUntouched() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/memory/vault");
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, new MockHttpServletResponse(), chain);
        assertThat(chain.getRequest()).isSameAs(request);
    }

    @Test
    void aBodyStillArrivingWhenTheHubStopsIsA503() throws Exception {
        filter.stop();
        try {
            Sent s = post("/memory/grc/draft", 2L << 20, false);
            assertThat(s.response().getStatus()).isEqualTo(503);
            assertThat(s.json().path("error").asText()).isEqualTo("unavailable");
            assertThat(s.body().read.get()).as("stopped at its next bytes").isLessThanOrEqualTo(8192);
            assertThat(s.chain().getRequest()).isNull();
        } finally {
            filter.start();
        }
        assertThat(post("/memory/grc/draft", 2L << 20, false).chain().getRequest()).isNotNull();
    }
}
