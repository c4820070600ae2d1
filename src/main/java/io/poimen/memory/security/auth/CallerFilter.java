package io.poimen.memory.security.auth;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Runs after bearer-token authentication, on the servlet thread: turns the validated JWT into a {@link Caller}
 * and stores it as a request attribute for the Camel route (see {@link ExchangeSecurity}). Not a Spring bean, so
 * the servlet container does not register it a second time outside the security chain.
 */
public class CallerFilter extends OncePerRequestFilter {
    public static final String ATTRIBUTE = "io.poimen.memory.caller";
    private final JwtCallerFactory callers;

    public CallerFilter(JwtCallerFactory callers) {
        this.callers = callers;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth instanceof JwtAuthenticationToken jwt && jwt.isAuthenticated()) {
            request.setAttribute(ATTRIBUTE, callers.from(jwt.getToken()));
        }
        chain.doFilter(request, response);
    }
}
