package io.poimen.memory.security.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class TraceIdFilterTest {

    @Test
    void takesTheTraceIdOfAW3cTraceparent() {
        assertThat(TraceIds.fromTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void makesAFreshIdForAMissingMalformedOrAllZeroTraceparent() {
        assertThat(TraceIds.fromTraceparent(null)).matches("[0-9a-f]{32}");
        assertThat(TraceIds.fromTraceparent("garbage")).matches("[0-9a-f]{32}");
        String zero = TraceIds.fromTraceparent("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01");
        assertThat(zero).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
        assertThat(TraceIds.fromTraceparent(null)).isNotEqualTo(TraceIds.fromTraceparent(null));
    }

    @Test
    void putsTheIdInTheMdcDuringTheRequestAndEchoesIt() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/memory/query");
        request.addHeader("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        MockHttpServletResponse response = new MockHttpServletResponse();
        String[] seen = new String[1];

        new TraceIdFilter().doFilter(request, response, new MockFilterChain() {
            @Override
            public void doFilter(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
                seen[0] = MDC.get(TraceIdFilter.MDC_KEY);
            }
        });

        assertThat(seen[0]).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(response.getHeader(TraceIds.RESPONSE_HEADER)).isEqualTo(seen[0]);
        assertThat(request.getAttribute(TraceIds.ATTRIBUTE)).isEqualTo(seen[0]);
        assertThat(MDC.get(TraceIdFilter.MDC_KEY)).isNull();
    }
}
