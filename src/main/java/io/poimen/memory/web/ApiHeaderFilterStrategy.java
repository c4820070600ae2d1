package io.poimen.memory.web;

import java.util.Locale;
import java.util.Set;
import org.apache.camel.Exchange;
import org.apache.camel.http.common.HttpHeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategy;

/**
 * Which message headers become HTTP response headers: only a short allow-list. Camel would otherwise echo the
 * request's headers (and any header a route step set) back to the client; an echoed request Content-Length
 * that no longer matches the JSON body broke the next response on a kept-alive connection. Incoming headers
 * are filtered as Camel's HTTP components do.
 */
public class ApiHeaderFilterStrategy implements HeaderFilterStrategy {
    private static final Set<String> RESPONSE_HEADERS = Set.of("content-type", "location", "cache-control",
            "retry-after", "www-authenticate", "x-trace-id");
    private final HeaderFilterStrategy incoming = new HttpHeaderFilterStrategy();

    @Override
    public boolean applyFilterToCamelHeaders(String name, Object value, Exchange exchange) {
        return !responseHeader(name);
    }

    /** True for a message header that goes out as an HTTP response header. */
    static boolean responseHeader(String name) {
        return RESPONSE_HEADERS.contains(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
        return incoming.applyFilterToExternalHeaders(name, value, exchange);
    }
}
