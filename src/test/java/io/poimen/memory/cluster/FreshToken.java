package io.poimen.memory.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.function.Supplier;

/** An access token from the identity provider, fetched again once half its lifetime has passed. */
final class FreshToken implements Supplier<String> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Supplier<String> fetch;
    private String token;
    private long renewAtSeconds;

    FreshToken(Supplier<String> fetch) {
        this.fetch = fetch;
    }

    @Override
    public synchronized String get() {
        long now = System.currentTimeMillis() / 1000;
        if (token == null || now >= renewAtSeconds) {
            token = fetch.get();
            JsonNode claims = claims(token);
            long issued = claims.path("iat").asLong(now);
            renewAtSeconds = issued + (claims.path("exp").asLong(now) - issued) / 2;
        }
        return token;
    }

    private static JsonNode claims(String jwt) {
        try {
            return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
