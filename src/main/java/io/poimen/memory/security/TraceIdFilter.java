package io.poimen.memory.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/** Gives every request a trace id (before authentication, so 401 answers carry one too): attribute + header. */
public class TraceIdFilter extends OncePerRequestFilter {
    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String id = TraceIds.fromTraceparent(request.getHeader("traceparent"));
        request.setAttribute(TraceIds.ATTRIBUTE, id);
        response.setHeader(TraceIds.RESPONSE_HEADER, id);
        chain.doFilter(request, response);
    }
}
