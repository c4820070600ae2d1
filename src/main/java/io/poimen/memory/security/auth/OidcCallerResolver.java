package io.poimen.memory.security.auth;

import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.api.ApiException;
import org.apache.camel.Exchange;

/** Caller of an exchange in oidc mode: from the request attribute {@link CallerFilter} set, never from headers. */
public class OidcCallerResolver implements CallerResolver {
    @Override
    public Caller caller(Exchange exchange) {
        Caller caller = exchange.getProperty(ExchangeSecurity.CALLER_PROPERTY, Caller.class);
        if (caller == null && ExchangeSecurity.requestAttribute(exchange, CallerFilter.ATTRIBUTE) instanceof Caller c) {
            caller = c;
            exchange.setProperty(ExchangeSecurity.CALLER_PROPERTY, c);
        }
        if (caller == null || caller.anonymous()) {
            throw new ApiException(401, "unauthorized", "a valid bearer token is required");
        }
        return caller;
    }
}
