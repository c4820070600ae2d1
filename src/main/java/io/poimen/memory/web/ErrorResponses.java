package io.poimen.memory.web;

import io.poimen.memory.api.AmbiguousNameException;
import io.poimen.memory.api.ApiException;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.springframework.dao.DataAccessException;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Turns the exception caught by the {@code api-errors} route configuration into a JSON error body and status.
 * Known errors keep their message; anything else is logged with its stack trace and answered without one.
 */
@Component
public class ErrorResponses {
    private static final Logger log = LoggerFactory.getLogger(ErrorResponses.class);

    public Map<String, Object> toBody(Exchange exchange) {
        Throwable e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        int status;
        String code;
        String message;
        String reason = null;
        Throwable storeFailure = storeFailure(e);
        if (e instanceof ApiException api) {
            status = api.status();
            code = api.code();
            message = api.getMessage();
            reason = api.reason();
        } else if (storeFailure != null) {
            status = 503;
            code = "store_unavailable";
            message = "the note store is not reachable; try again shortly";
            log.warn("request {}: note store unavailable: {}", exchange.getExchangeId(),
                    storeFailure.getMessage());
        } else if (e instanceof JsonProcessingException || e instanceof IllegalArgumentException) {
            status = 400;
            code = "bad_request";
            message = e instanceof JsonProcessingException json ? "malformed JSON: " + json.getOriginalMessage()
                    : e.getMessage();
        } else if (unreadableBody(e)) {
            status = 400;
            code = "bad_request";
            message = "the request body could not be read as text: send JSON in UTF-8";
        } else {
            status = 500;
            code = "internal_error";
            message = "internal error; see the hub log for trace " + exchange.getExchangeId();
            log.error("request {} failed", exchange.getExchangeId(), e);
        }
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        if (reason != null) {
            body.put("reason", reason);
        }
        if (e instanceof AmbiguousNameException ambiguous) {
            body.put("candidates", ambiguous.candidates());
        }
        return body;
    }

    /**
     * True when reading the request body failed (platform-http hands the body over as a Reader; bytes that are not
     * UTF-8 break it when Camel caches or converts it): the client's fault, not the hub's.
     */
    static boolean unreadableBody(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.apache.camel.StreamCacheException
                    || t instanceof java.nio.charset.CharacterCodingException) {
                return true;
            }
            if (t instanceof org.apache.camel.TypeConversionException c
                    && (c.getValue() instanceof java.io.Reader || c.getValue() instanceof java.io.InputStream)) {
                return true;
            }
        }
        return false;
    }

    /** The database error in {@code e}'s cause chain (a reindex wraps it in the ingest route's exceptions). */
    static Throwable storeFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DataAccessException || t instanceof java.sql.SQLException) {
                return t;
            }
        }
        return null;
    }
}
