package io.poimen.memory.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The web server takes requests a few seconds before Camel has started the routes behind them; an API call in
 * that window answers 503 {@code starting} with {@code Retry-After} instead of failing inside a route that is
 * not there yet. Once the routes are up the gate stays open (shutdown has its own answer). The UI's files and
 * the actuator are not gated: readiness reports the start-up on its own.
 */
public class StartingFilter extends OncePerRequestFilter {
    static final String RETRY_AFTER_SECONDS = "2";

    private final BooleanSupplier routesStarted;
    private volatile boolean open;

    public StartingFilter(BooleanSupplier routesStarted) {
        this.routesStarted = routesStarted;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return !(path.startsWith("/memory/") || path.equals("/mcp") || path.startsWith("/mcp/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!open && !(open = routesStarted.getAsBoolean())) {
            response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
            JsonErrorBody.write(response, 503, "starting", "the hub is starting; retry in a few seconds");
            return;
        }
        chain.doFilter(request, response);
    }
}
