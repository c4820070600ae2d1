package io.poimen.memory.security.auth;

import io.poimen.memory.security.policy.Caller;
import org.apache.camel.Exchange;

/** The caller of the request an exchange came from. Camel beans take the caller from here, never from headers. */
public interface CallerResolver {
    /** @throws io.poimen.memory.api.ApiException 401 when the request carries no valid token (auth enabled) */
    Caller caller(Exchange exchange);
}
