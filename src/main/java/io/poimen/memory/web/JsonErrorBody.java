package io.poimen.memory.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The API's error body {@code {"error": code, "message": text}}, written straight to a servlet response. */
public final class JsonErrorBody {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonErrorBody() {
    }

    public static Map<String, String> of(String code, String message) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        return body;
    }

    public static void write(HttpServletResponse response, int status, String code, String message)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        JSON.writeValue(response.getOutputStream(), of(code, message));
    }

    /** The stable code of an HTTP error status, as the API's own errors name them. */
    public static String code(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 408 -> "request_timeout";
            case 413 -> "payload_too_large";
            case 414 -> "uri_too_long";
            case 415 -> "unsupported_media_type";
            case 422 -> "unprocessable";
            case 431 -> "request_header_fields_too_large";
            case 503 -> "unavailable";
            default -> status >= 500 ? "internal_error" : "bad_request";
        };
    }
}
