package io.poimen.memory.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors raised outside the Camel routes (no such endpoint, wrong method, a request Spring MVC refused) answer in
 * the API's shape {@code {"error", "message"}} with their status, instead of Spring Boot's {@code /error} page.
 */
@RestController
class JsonErrorController implements ErrorController {

    @RequestMapping(path = "/error", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, String>> error(HttpServletRequest request) {
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
                    + request.getAttribute(io.poimen.memory.security.TraceIds.ATTRIBUTE)
                    : "the request could not be read";
        };
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
                .body(JsonErrorBody.of(JsonErrorBody.code(status), message));
    }
}
