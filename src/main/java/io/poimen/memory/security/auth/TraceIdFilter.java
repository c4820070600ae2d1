package io.poimen.memory.security.auth;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.MDC;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request a trace id (before authentication, so 401 answers carry one too): a request attribute for
 * the audit log, the {@code X-Trace-Id} response header, and the logging MDC key {@value #MDC_KEY} (the log
 * patterns print it).
 */
public class TraceIdFilter extends OncePerRequestFilter {
    public static final String MDC_KEY = "traceId";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String id = TraceIds.fromTraceparent(request.getHeader("traceparent"));
        request.setAttribute(TraceIds.ATTRIBUTE, id);
        response.setHeader(TraceIds.RESPONSE_HEADER, id);
        MDC.put(MDC_KEY, id);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(MDC_KEY);
        }
    }
}
