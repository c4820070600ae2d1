package io.poimen.memory.security.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * 401 and 403 from the security filter chain as the API's JSON error body, never an HTML page or a 500:
 * {@code {"error":"unauthorized","message":...}} with {@code WWW-Authenticate: Bearer} (RFC 6750).
 */
public class JsonAuthenticationEntryPoint implements AuthenticationEntryPoint, AccessDeniedHandler {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        boolean invalid = e instanceof InvalidBearerTokenException
                || e.getCause() instanceof org.springframework.security.oauth2.jwt.JwtException;
        String message = invalid ? "invalid bearer token: " + e.getMessage()
                : request.getHeader("Authorization") == null ? "missing bearer token (Authorization: Bearer <jwt>)"
                : "bearer token rejected: " + e.getMessage();
        response.setHeader("WWW-Authenticate", invalid ? "Bearer error=\"invalid_token\"" : "Bearer");
        write(response, 401, "unauthorized", message);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        write(response, 403, "forbidden", e.getMessage());
    }

    private static void write(HttpServletResponse response, int status, String code, String message)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        JSON.writeValue(response.getOutputStream(), body);
    }
}
