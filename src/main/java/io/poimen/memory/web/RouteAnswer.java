package io.poimen.memory.web;

import io.poimen.memory.security.auth.ExchangeSecurity;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.apache.camel.Exchange;
import org.slf4j.Logger;

/**
 * The answer of a route that a servlet sent its request to itself ({@link QueryServlet}, {@link AttachmentServlet}):
 * a 500 for what got past the route's error handling, else the route's status, allow-listed headers
 * ({@link ApiHeaderFilterStrategy}) and JSON bytes with their Content-Length.
 */
final class RouteAnswer {
    private RouteAnswer() {
    }

    /**
     * True, after writing the 500, when the exchange ended with an exception: api-errors handles every
     * {@code Exception}, so what is left is an {@code Error} thrown past it.
     */
    static boolean failed(Exchange done, HttpServletResponse response, Logger log) throws IOException {
        if (done.getException() == null) {
            return false;
        }
        log.error("request {} failed", done.getExchangeId(), done.getException());
        JsonErrorBody.write(response, 500, "internal_error", "internal error; see the hub log for trace "
                + ExchangeSecurity.traceId(done));
        return true;
    }

    /** The route's status (or {@code defaultStatus}), allow-listed headers and body bytes. */
    static void write(Exchange done, HttpServletResponse response, int defaultStatus) throws IOException {
        Integer status = done.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
        response.setStatus(status != null ? status : defaultStatus);
        for (Map.Entry<String, Object> h : done.getMessage().getHeaders().entrySet()) {
            if (h.getValue() != null && ApiHeaderFilterStrategy.responseHeader(h.getKey())) {
                response.setHeader(h.getKey(), h.getValue().toString());
            }
        }
        byte[] json = done.getMessage().getBody(byte[].class);
        if (json != null) {
            response.setContentLength(json.length);
            response.getOutputStream().write(json);
        }
    }
}
