package io.poimen.memory.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The no-auth mode answers only requests addressed to a loopback name: a {@code Host} of {@code localhost},
 * {@code 127.x.x.x} or {@code [::1]} (with any port). A page on another site whose DNS name is re-pointed at
 * 127.0.0.1 (DNS rebinding) sends its own name as the Host and gets a 403. A state-changing request that carries
 * an {@code Origin} must come from a loopback origin as well.
 */
public class LoopbackOnlyFilter extends OncePerRequestFilter {
    private static final Pattern IPV4_LOOPBACK = Pattern.compile("127(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern PORT = Pattern.compile("\\d{1,5}");
    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String host = request.getHeader("Host");
        if (host != null && !loopbackHost(host)) {
            JsonErrorBody.write(response, 403, "host_not_allowed", "without authentication the hub answers only "
                    + "requests to localhost, 127.0.0.1 or [::1]; use poimen.security.mode=oidc to serve other names");
            return;
        }
        String origin = request.getHeader("Origin");
        if (origin != null && !READS.contains(request.getMethod()) && !loopbackOrigin(origin)) {
            JsonErrorBody.write(response, 403, "origin_not_allowed", "without authentication the hub accepts "
                    + "changes only from pages served on a loopback address");
            return;
        }
        chain.doFilter(request, response);
    }

    /** {@code localhost}, {@code 127.x.x.x} or {@code [::1]}, each with an optional port. */
    static boolean loopbackHost(String hostHeader) {
        String h = hostHeader.trim().toLowerCase(Locale.ROOT);
        String name;
        String port = null;
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            if (end < 0) {
                return false;
            }
            name = h.substring(0, end + 1);
            String rest = h.substring(end + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return false;
                }
                port = rest.substring(1);
            }
        } else {
            int colon = h.indexOf(':');
            name = colon < 0 ? h : h.substring(0, colon);
            port = colon < 0 ? null : h.substring(colon + 1);
        }
        if (port != null && !PORT.matcher(port).matches()) {
            return false;
        }
        return name.equals("localhost") || name.equals("[::1]") || IPV4_LOOPBACK.matcher(name).matches();
    }

    static boolean loopbackOrigin(String origin) {
        try {
            URI uri = URI.create(origin.trim());
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getRawAuthority() == null
                    || uri.getRawUserInfo() != null) {
                return false;
            }
            return loopbackHost(uri.getRawAuthority());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
