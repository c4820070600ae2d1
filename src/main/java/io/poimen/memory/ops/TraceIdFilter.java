package io.poimen.memory.ops;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every HTTP request a trace id: the trace-id field of a W3C {@code traceparent} header when the caller
 * sent one, else a fresh random one. It is put in the logging MDC under {@value #MDC_KEY} (the JSON log
 * encoder writes it with every line), in the request attribute of the same name (for the audit log), and
 * echoed in the {@value #RESPONSE_HEADER} response header so a caller can quote it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class TraceIdFilter extends OncePerRequestFilter {
    public static final String MDC_KEY = "traceId";
    public static final String RESPONSE_HEADER = "X-Trace-Id";
    private static final Pattern TRACEPARENT = Pattern.compile("^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String traceId = traceId(request.getHeader("traceparent"));
        MDC.put(MDC_KEY, traceId);
        request.setAttribute(MDC_KEY, traceId);
        response.setHeader(RESPONSE_HEADER, traceId);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(MDC_KEY);
        }
    }

    static String traceId(String traceparent) {
        if (traceparent != null) {
            var m = TRACEPARENT.matcher(traceparent.trim());
            if (m.matches() && !m.group(1).equals("0".repeat(32))) {
                return m.group(1);
            }
        }
        return UUID.randomUUID().toString().replace("-", "");
    }
}
