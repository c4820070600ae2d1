package io.poimen.memory.web.limits;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.config.LimitsProperties;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerFilter;
import io.poimen.memory.web.JsonErrorBody;
import com.github.benmanes.caffeine.cache.Ticker;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Requests per minute per caller on the query, MCP and write surfaces ({@code poimen.limits.*}). Runs after the
 * security chain, so the caller is the one its bearer token names, and before anything reads the request body. A
 * caller is its subject and, when the token names one ({@code azp}, else {@code client_id}), its client: a person's
 * web UI and their agent's client have buckets of their own. Over the limit: 429
 * {@code {"error":"rate_limited"}} with {@code Retry-After} in seconds; other callers are not affected. Requests
 * without a caller (health, the Forgejo webhook with its signature) and the local operator of the no-auth mode
 * (unless {@code poimen.limits.local-operator}) are not limited.
 *
 * <p>Each replica has its own buckets of {@code limit / poimen.limits.replicas}: no shared counter, so no database
 * round trip per request, and a caller gets at most the limit from all replicas together.
 */
public class CallerRateLimitFilter extends OncePerRequestFilter {
    enum Surface { QUERY, MCP, WRITES }

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final String QUERY_PATH = "/memory/query";
    private static final String WEBHOOKS = "/memory/webhooks/";

    private final Map<Surface, TokenBuckets> buckets = new EnumMap<>(Surface.class);
    private final Map<Surface, Integer> perMinute = new EnumMap<>(Surface.class);
    private final Map<Surface, Counter> rejected = new EnumMap<>(Surface.class);
    private final boolean oidc;
    private final boolean limitLocalOperator;

    /** @param oidc whether callers come from bearer tokens (else every caller is the no-auth local operator) */
    public CallerRateLimitFilter(LimitsProperties limits, boolean oidc, MeterRegistry registry, Ticker ticker) {
        perMinute.put(Surface.QUERY, limits.queryPerMinute());
        perMinute.put(Surface.MCP, limits.mcpPerMinute());
        perMinute.put(Surface.WRITES, limits.writesPerMinute());
        perMinute.forEach((surface, limit) -> {
            if (limit > 0) {
                buckets.put(surface, new TokenBuckets(Math.max(1.0, (double) limit / limits.replicas()), ticker));
            }
            rejected.put(surface, Counter.builder("poimen.limits.rejected").tag("surface", name(surface))
                    .description("requests answered 429 because their caller was over its limit")
                    .register(registry));
        });
        this.oidc = oidc;
        this.limitLocalOperator = limits.localOperator() && !oidc;
    }

    /** The limited surface {@code request} is on, or null; by the path the container dispatches on. */
    static Surface surface(HttpServletRequest request) {
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (path.startsWith(WEBHOOKS)) {
            return null; // no caller: authenticated by their signature, repeats dropped by their delivery id
        }
        if (path.equals("/mcp") || path.startsWith("/mcp/")) {
            return Surface.MCP;
        }
        if (path.equals(QUERY_PATH)) {
            return "POST".equals(request.getMethod()) ? Surface.QUERY : null;
        }
        return path.startsWith("/memory/") && WRITES.contains(request.getMethod()) ? Surface.WRITES : null;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        if (!oidc && !limitLocalOperator) {
            return true; // the no-auth mode has one caller, the local operator, unlimited
        }
        Surface surface = surface(request);
        return surface == null || !buckets.containsKey(surface);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Surface surface = surface(request);
        String caller = callerKey(request);
        long retryAfter = caller == null ? 0 : buckets.get(surface).take(caller);
        if (retryAfter == 0) {
            chain.doFilter(request, response);
            return;
        }
        rejected.get(surface).increment();
        response.setHeader("Retry-After", Long.toString(retryAfter));
        JsonErrorBody.write(response, 429, "rate_limited", "this caller is over its limit of "
                + perMinute.get(surface) + " requests per minute to " + name(surface) + " (poimen.limits."
                + name(surface) + "-per-minute); retry after " + retryAfter + " s");
    }

    /** Subject and client of the request's caller, or null when it is not limited. */
    private String callerKey(HttpServletRequest request) {
        Object attribute = request.getAttribute(CallerFilter.ATTRIBUTE);
        if (attribute instanceof Caller caller) {
            String client = clientId();
            return caller.subject().length() + ":" + caller.subject() + (client == null ? "" : client);
        }
        // no bearer was resolved: in the no-auth mode every caller is the local operator
        return limitLocalOperator ? Caller.LOCAL_OPERATOR.subject() : null;
    }

    private static String clientId() {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth instanceof JwtAuthenticationToken token) {
            Jwt jwt = token.getToken();
            String azp = jwt.getClaimAsString("azp");
            return azp != null ? azp : jwt.getClaimAsString("client_id");
        }
        return null;
    }

    private static String name(Surface surface) {
        return surface.name().toLowerCase(Locale.ROOT);
    }
}
