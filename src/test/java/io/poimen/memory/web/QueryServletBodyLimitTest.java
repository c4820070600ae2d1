package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.retrieval.QueryPipeline;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The servlet reads at most one byte more than the route accepts, however long the body is (a huge body is never held in memory). */
class QueryServletBodyLimitTest {

    /** A 64 MB body that counts what was read of it. */
    static final class LongBody extends ServletInputStream {
        static final long LENGTH = 64L * 1024 * 1024;
        final AtomicLong read = new AtomicLong();

        @Override
        public int read() {
            return read.get() < LENGTH && read.incrementAndGet() > 0 ? 'x' : -1;
        }

        @Override
        public boolean isFinished() {
            return read.get() >= LENGTH;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
        }
    }

    @Test
    void aLongBodyIsReadOnlyToOneByteOverTheLimit() throws Exception {
        AtomicInteger routeGot = new AtomicInteger(-1);
        try (CamelContext camel = new DefaultCamelContext()) {
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:query").process(e -> {
                        routeGot.set(e.getMessage().getBody(byte[].class).length);
                        e.getMessage().setHeader(org.apache.camel.Exchange.HTTP_RESPONSE_CODE, 413);
                        e.getMessage().setBody("{\"error\":\"payload_too_large\"}".getBytes());
                    });
                }
            });
            camel.start();
            LongBody body = new LongBody();
            MockHttpServletRequest request = new MockHttpServletRequest("POST", QueryServlet.PATH) {
                @Override
                public ServletInputStream getInputStream() {
                    return body;
                }
            };
            MockHttpServletResponse response = new MockHttpServletResponse();

            new QueryServlet(camel.createProducerTemplate(), "direct:query").service(request, response);

            assertThat(routeGot.get()).isEqualTo(QueryPipeline.MAX_BODY_BYTES + 1);
            assertThat(body.read.get()).isEqualTo(QueryPipeline.MAX_BODY_BYTES + 1L);
            assertThat(response.getStatus()).isEqualTo(413);
        }
    }
}
