package io.poimen.memory.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors raised outside the Camel routes (no such endpoint, wrong method, a request Spring MVC refused) answer in
 * the API's shape {@code {"error", "message"}} with their status, instead of Spring Boot's {@code /error} page.
 */
@RestController
class JsonErrorController implements ErrorController {

    /** Written to the response directly: a client that accepts only text/html still gets the JSON error. */
    @RequestMapping(path = "/error")
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i && i >= 400 ? i : 500;
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String where = uri instanceof String u ? " " + u : "";
        String message = switch (status) {
            case 404 -> "no endpoint at" + where;
            case 405 -> "method not allowed on" + where;
            case 406 -> "only application/json answers are available at" + where;
            case 413 -> "request too large";
            case 415 -> "unsupported Content-Type for" + where + "; send application/json";
            default -> status >= 500 ? "internal error; see the hub log for trace "
                    + request.getAttribute(io.poimen.memory.security.auth.TraceIds.ATTRIBUTE)
                    : "the request could not be read";
        };
        JsonErrorBody.write(response, status, JsonErrorBody.code(status), message);
    }
}
