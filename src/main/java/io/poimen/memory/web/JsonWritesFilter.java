package io.poimen.memory.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The body rules of the API. A {@code GET}, {@code HEAD} or {@code DELETE} takes no body (400): none of them
 * reads one, and an unread body that is not UTF-8 would still fail the route's body handling. Every
 * state-changing request to the API ({@code POST}, {@code PUT}, {@code PATCH} under {@code /memory/} and
 * {@code /mcp}) must say {@code Content-Type: application/json} (UTF-8): anything else is a 415 in the API's JSON
 * shape. A browser sends a cross-site request without a preflight only as {@code text/plain}, a form or
 * multipart, so this also keeps other sites from triggering writes (a reindex, a draft) in the no-auth mode.
 */
public class JsonWritesFilter extends OncePerRequestFilter {
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH");
    private static final Set<String> NO_BODY = Set.of("GET", "HEAD", "DELETE");

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return !(path.startsWith("/memory/") || path.equals("/mcp") || path.startsWith("/mcp/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (NO_BODY.contains(request.getMethod())) {
            if (request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null) {
                JsonErrorBody.write(response, 400, "bad_request", request.getMethod() + " takes no request body");
                return;
            }
            chain.doFilter(request, response);
            return;
        }
        if (!WRITES.contains(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        String problem = problem(request.getContentType());
        if (problem != null) {
            JsonErrorBody.write(response, 415, "unsupported_media_type", request.getMethod() + " "
                    + request.getRequestURI() + " takes Content-Type: application/json; " + problem);
            return;
        }
        chain.doFilter(request, response);
    }

    /** Why {@code contentType} is not JSON in UTF-8, or null when it is. */
    static String problem(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return "the request has no Content-Type";
        }
        MediaType type;
        try {
            type = MediaType.parseMediaType(contentType);
        } catch (InvalidMediaTypeException e) {
            return "the Content-Type does not parse";
        }
        boolean json = type.getType().equals("application")
                && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
        if (!json) {
            return "got " + type.getType() + "/" + type.getSubtype();
        }
        Charset charset;
        try {
            charset = type.getCharset();
        } catch (RuntimeException e) {
            return "unknown charset";
        }
        return charset == null || charset.equals(StandardCharsets.UTF_8) ? null
                : "JSON is read as UTF-8, got charset " + charset.name();
    }
}
