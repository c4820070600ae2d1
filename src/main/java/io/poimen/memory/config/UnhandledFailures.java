package io.poimen.memory.config;

import java.nio.charset.StandardCharsets;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last word on a REST request whose route did not answer: an exchange that comes back failed (a route without
 * the {@code api-errors} configuration, an error handler that failed itself) or an Error thrown past the routes.
 * The platform-http consumer would write the failure's stack trace as text, or (for an Error) the message as it
 * stood, which is the request: a 200 echoing the request body. It gets the 500 {@code internal_error} JSON answer
 * of the API instead, and the failure goes to the log.
 */
final class UnhandledFailures {
    private static final Logger log = LoggerFactory.getLogger(UnhandledFailures.class);

    private UnhandledFailures() {
    }

    /** {@code route} as the platform-http consumer's processor. */
    static Processor answering(Processor route) {
        return exchange -> {
            Throwable failure;
            try {
                route.process(exchange);
                failure = exchange.getException();
            } catch (Error e) {
                failure = e;
            }
            if (failure != null) {
                log.error("request {} failed past the route's error handler", exchange.getExchangeId(), failure);
                exchange.setException(null);
                exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 500);
                exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
                exchange.getMessage().setBody(("{\"error\":\"internal_error\",\"message\":\"internal error; see "
                        + "the hub log for trace " + exchange.getExchangeId() + "\"}").getBytes(StandardCharsets.UTF_8));
            }
        };
    }
}
