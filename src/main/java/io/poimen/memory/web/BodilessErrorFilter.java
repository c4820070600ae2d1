package io.poimen.memory.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives an error status that left the response empty the API's JSON body. Actuator answers an unknown health
 * group ({@code /actuator/health/}, {@code /actuator/health/x}) with a bare 404 that never reaches the error page.
 */
public class BodilessErrorFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(request, response);
        int status = response.getStatus();
        if (status >= 400 && !request.isAsyncStarted() && !response.isCommitted() && response.getContentType() == null) {
            JsonErrorBody.write(response, status, JsonErrorBody.code(status),
                    "HTTP " + status + " for " + request.getMethod() + " " + request.getRequestURI());
        }
    }
}
